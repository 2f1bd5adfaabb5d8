#!/usr/bin/env bash
# CI build job (CPU runner): configure and build archbench for one arch-list variant and pack the
# binaries the GPU legs need into DIST/archbench-VARIANT.tar.gz (a tarball keeps the executable
# bits, which actions/upload-artifact drops). Usage: build.sh VARIANT ARCH_LIST DIST
set -euo pipefail
variant="$1"; arch_list="$2"; dist="$3"
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/build-ci-$variant"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DARCHBENCH_ARCH_LIST="$arch_list" \
  -DARCHBENCH_BUILD_BENCHMARKS=OFF
cmake --build "$build" -j"$(nproc)" --target archbench archbench_ops_tests
stage="$(mktemp -d)"; trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$dist"
cp "$build/archbench" "$build/suites/archbench_ops_tests" "$stage/bin/"
"$stage/bin/archbench" --version > "$stage/MANIFEST.txt"
tar -C "$stage" -czf "$dist/archbench-$variant.tar.gz" bin MANIFEST.txt
echo "packed $dist/archbench-$variant.tar.gz:"; cat "$stage/MANIFEST.txt"
