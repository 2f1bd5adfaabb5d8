#!/usr/bin/env bash
# Builds the libFuzzer target for the fatbin/ELF reader with clang (ASan + UBSan) and runs it for
# a bounded time on a scratch copy of the seed corpus. Exit 77 (ctest: skipped) without clang's
# libFuzzer runtime. Usage: run_fuzz.sh SOURCE_DIR BUILD_DIR SECONDS
set -uo pipefail
src="$1"; build="$2"; seconds="${3:-20}"
cxx="$(command -v clang++-14 || command -v clang++ || true)"
if [ -z "$cxx" ]; then echo "SKIP: clang++ not installed (apt-get install clang libclang-rt-14-dev)"; exit 77; fi
mkdir -p "$build"
if ! "$cxx" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I"$src" \
    "$src/suites/fuzz/fuzz_binary_reader.cpp" "$src"/harness/binary/*.cpp "$src"/harness/arch/*.cpp \
    -llz4 -lzstd -o "$build/fuzz_binary_reader" 2> "$build/fuzz_build.log"; then
  if grep -q "libclang_rt.fuzzer\|cannot find.*fuzzer" "$build/fuzz_build.log"; then
    echo "SKIP: clang's libFuzzer runtime missing (apt-get install libclang-rt-14-dev)"; exit 77
  fi
  cat "$build/fuzz_build.log"; exit 1
fi
corpus="$build/fuzz_corpus"; rm -rf "$corpus"; mkdir -p "$corpus"
"$build/fuzz_binary_reader" "$corpus" "$src/suites/fuzz/corpus" -max_total_time="$seconds" -max_len=65536 \
  -print_final_stats=1 2>&1 | tail -25
exit "${PIPESTATUS[0]}"
