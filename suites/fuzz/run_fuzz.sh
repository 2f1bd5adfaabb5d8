#!/usr/bin/env bash
# Builds one libFuzzer target with clang (ASan + UBSan) and runs it for a bounded time on a
# scratch copy of its seed corpus. Exit 77 (ctest: skipped) without clang's libFuzzer runtime.
# Usage: run_fuzz.sh TARGET SOURCE_DIR BUILD_DIR GENERATED_DIR SECONDS
#   FUZZ_RUNS=N in the environment runs N executions instead (the long campaigns: FUZZ_RUNS=1000000).
#   TARGET: binary_reader | pe_reader | archive_reader | arch_list | stored_json
set -uo pipefail
target="$1"; src="$2"; build="$3"; gen="$4"; seconds="${5:-20}"
cxx="$(command -v clang++-14 || command -v clang++ || true)"
if [ -z "$cxx" ]; then echo "SKIP: clang++ not installed (apt-get install clang libclang-rt-14-dev)"; exit 77; fi
cuda="${CUDA_HOME:-/usr/local/cuda}"
case "$target" in
  binary_reader) sources=("$src"/harness/binary/*.cpp "$src"/harness/arch/*.cpp); libs=(-llz4 -lzstd -lfmt) ;;
  pe_reader)     sources=("$src"/harness/binary/*.cpp "$src"/harness/arch/*.cpp); libs=(-llz4 -lzstd -lfmt) ;;
  archive_reader) sources=("$src"/harness/stack/archive_reader.cpp); libs=(-larchive) ;;
  arch_list)     sources=("$src"/harness/arch/*.cpp); libs=() ;;
  stored_json)   # the loaders and what they reach: result model, JSON, statistics, timer summary, manifest
    sources=("$src"/harness/baseline/*.cpp "$src"/harness/result/*.cpp
             "$src"/harness/device/nvml.cpp "$src"/harness/util/atomic_file.cpp
             "$src"/harness/util/cuda_check.cpp "$src"/harness/manifest/build_manifest.cpp "$src"/harness/arch/*.cpp)
    libs=(-L"$cuda/lib64" -Wl,-rpath,"$cuda/lib64" -lcudart -lfmt -ldl) ;;
  *) echo "unknown fuzz target $target"; exit 2 ;;
esac
mkdir -p "$build"
exe="$build/fuzz_$target"
# -O0 for ctest's bounded run: it halves the sanitized build, the run's only real cost; a long
# campaign (FUZZ_RUNS) builds at -O1, as libFuzzer recommends, for more executions per second.
opt=-O0
if [ -n "${FUZZ_RUNS:-}" ]; then opt=-O1; fi
if ! "$cxx" -std=c++20 -g "$opt" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DFMT_SHARED \
    -I"$src" -I"$gen" -isystem "$cuda/include" "$src/suites/fuzz/fuzz_$target.cpp" "${sources[@]}" "${libs[@]}" \
    -o "$exe" 2> "$build/fuzz_$target.build.log"; then
  if grep -q "libclang_rt.fuzzer\|cannot find.*fuzzer" "$build/fuzz_$target.build.log"; then
    echo "SKIP: clang's libFuzzer runtime missing (apt-get install libclang-rt-14-dev)"; exit 77
  fi
  cat "$build/fuzz_$target.build.log"; exit 1
fi
corpus="$build/corpus_$target"; rm -rf "$corpus"; mkdir -p "$corpus"
limit="-max_total_time=$seconds"
if [ -n "${FUZZ_RUNS:-}" ]; then limit="-runs=$FUZZ_RUNS"; fi
"$exe" "$corpus" "$src/suites/fuzz/corpus_$target" "$limit" -max_len=65536 -print_final_stats=1 -error_exitcode=1 \
  2>&1 | tail -25
exit "${PIPESTATUS[0]}"
