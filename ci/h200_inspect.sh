#!/usr/bin/env bash
# The inspector on a GPU machine: build the default arch list; archbench run (which cross-checks
# every own kernel's runtime verdict against the prediction from its own executable); inspect vs
# cuobjdump on archbench, cuBLASLt, libtorch_cuda and cuDNN with timings; predictions for 11.0, 8.9
# and 9.0. Usage: GITREV=<sha> ci/h200_inspect.sh     (logs to $OUT)
set -uo pipefail
final="${OUT:-$PWD/h200-out}"; mkdir -p "$final"
out="$(mktemp -d)"
b=/tmp/ab-default
cmake -S . -B "$b" -G Ninja -DARCHBENCH_ARCH_LIST="7.5;8.0;8.6;9.0;10.0;12.0+PTX" -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" \
  > "$out/configure.log" 2>&1 && /usr/bin/time -f "build %e s" cmake --build "$b" -j"$(nproc)" > "$out/build.log" 2>&1
echo "build exit $?"; tail -1 "$out/build.log"

"$b/archbench" run --json "$out/run0.json" > "$final/run0.txt" 2>&1; echo "run exit $? (own kernels cross-checked against this executable)"

{
  cuobjdump="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
  torch_lib="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so"))' 2>/dev/null)"
  libs=("$b/archbench" /usr/local/cuda/lib64/libcublasLt.so.13 "$torch_lib")
  for l in /usr/lib/x86_64-linux-gnu/libcudnn_engines_precompiled.so.9; do
    [ -f "$l" ] && libs+=("$l")
  done
  for lib in "${libs[@]}"; do
    [ -f "$lib" ] || { echo "=== $lib: not found"; continue; }
    echo "=== $lib ($(stat -Lc %s "$lib") bytes)"
    /usr/bin/time -f "archbench inspect: %e s" "$b/archbench" inspect "$lib" --json "$out/inspect.json" > "$out/inspect.txt" 2> "$out/time.txt"
    cat "$out/inspect.txt" "$out/time.txt"
    /usr/bin/time -f "cuobjdump --list-elf: %e s" "$cuobjdump" --list-elf "$lib" > "$out/elf.txt" 2> "$out/time.txt"; tail -1 "$out/time.txt"
    /usr/bin/time -f "cuobjdump --list-ptx: %e s" "$cuobjdump" --list-ptx "$lib" > "$out/ptx.txt" 2> "$out/time.txt"; tail -1 "$out/time.txt"
    python3 ci/compare_cuobjdump.py "$out/inspect.json" "$out/elf.txt" "$out/ptx.txt"
  done
  if [ -f "$torch_lib" ]; then
    /usr/bin/time -f "inspect --device 11.0: %e s" "$b/archbench" inspect "$torch_lib" --device 11.0 --driver 580; echo "exit $?"
    "$b/archbench" inspect "$torch_lib" --device 8.9 --driver 580; echo "exit $?"
    "$b/archbench" inspect "$torch_lib" --device 9.0 --driver 580; echo "exit $?"
  fi
} > "$final/inspect.txt" 2>&1
grep -E "===|equal|DIFFERENT|s$|kernels have" "$final/inspect.txt" | head -40
