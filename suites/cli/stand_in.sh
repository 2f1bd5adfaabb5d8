# Sourced by the CLI tests that run a gate script without a GPU: make_stand_in REAL_ARCHBENCH DIR
# writes DIR/archbench, the real archbench except for the subcommands that need a GPU:
# - run: the first call copies $FAKE_FIRST to its --json file, every later call (a gate's re-run)
#   $FAKE_RERUN (nothing when that file does not exist); each call's --filter is appended to
#   DIR/run_filters. FAKE_RUN_RC=3 stands for "no usable GPU".
# - doctor: "summary: healthy", exit 0; resources: a spec with one GPU.
# and DIR/archbench_ops_tests, a GPU suite of one passing test.
make_stand_in() {
  local real="$1" dir="$2"
  mkdir -p "$dir"; : > "$dir/run_filters"
  cat > "$dir/archbench" <<STUB
#!/usr/bin/env bash
case "\$1" in
  run) ;;
  doctor) echo "summary: healthy (stand-in)"; exit 0 ;;
  resources)
    while [ \$# -gt 0 ]; do [ "\$1" = --json ] && { shift; break; }; shift; done
    echo '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 1}]}]}' > "\$1"; exit 0 ;;
  *) exec "$real" "\$@" ;;
esac
json=""; filter="*"
while [ \$# -gt 0 ]; do case "\$1" in --json) json="\$2"; shift;; --filter) filter="\$2"; shift;; esac; shift; done
first=0; [ -s "$dir/run_filters" ] || first=1
echo "\$filter" >> "$dir/run_filters"
[ "\${FAKE_RUN_RC:-0}" -eq 3 ] && { echo "archbench run: no usable CUDA device (cudaErrorInsufficientDriver)" >&2; exit 3; }
src="\$([ "\$first" -eq 1 ] && echo "\$FAKE_FIRST" || echo "\$FAKE_RERUN")"
[ -f "\$src" ] || { echo "stand-in run: nothing to write (\$src)" >&2; exit 4; }
cp "\$src" "\$json"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])).get("selection");
print("selection: %d of %d operators" % (s["selected"], s["registered"]) if s and s["selected"] < s["registered"] else "")' "\$json"
echo "summary: stand-in run -> PASS"
STUB
  cat > "$dir/archbench_ops_tests" <<'STUB'
#!/usr/bin/env bash
if [ "$1" = --gtest_list_tests ]; then printf 'Registry/OperatorTest.\n  ImageAndCorrectness/matmul__gemm_tc__f16__M1_N1_K8  # stand-in\n'; exit 0; fi
echo "[  PASSED  ] 1 test."
STUB
  chmod +x "$dir/archbench" "$dir/archbench_ops_tests"
}
