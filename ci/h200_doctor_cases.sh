#!/usr/bin/env bash
# Issue #6's provoked cases on a real GPU (the H200), each with the finding and fix the doctor must
# name. Step 1 builds the variant builds (no tests); step 2 runs the doctor against each and checks
# exit code and text. Reports land in $OUT (or ./h200-out) as doctor-<case>.txt.
#   ci/h200_doctor_cases.sh build            # /tmp/dc-sm80 (8.0), /tmp/dc-ptx (8.0+PTX), /tmp/dc-gap (9.0, f32 flash at 8.0)
#   ci/h200_doctor_cases.sh run DEFAULT_BUILD # the default build (its archbench) for the PASS case, --check and 222
set -uo pipefail
out="${OUT:-$PWD/h200-out}"; mkdir -p "$out"
step="${1:?step}"
configure() {  # name arch-list [extra cmake args]
  local name="$1" list="$2"; shift 2
  cmake -S . -B "/tmp/dc-$name" -G Ninja -DARCHBENCH_ARCH_LIST="$list" -DARCHBENCH_BUILD_TESTS=OFF \
    -DARCHBENCH_BUILD_BENCHMARKS=OFF -DARCHBENCH_GIT_REVISION="${GITREV:-unknown}" "$@" > "$out/build-$name.log" 2>&1 &&
    cmake --build "/tmp/dc-$name" -j"${JOBS:-$(nproc)}" --target archbench >> "$out/build-$name.log" 2>&1
  echo "build $name ($list $*): exit $?"
}
if [ "$step" = build ]; then
  configure sm80 "8.0" &
  configure ptx "8.0+PTX" &
  configure gap "9.0" "-DARCHBENCH_KERNEL_ARCH_OVERRIDES=attention/flash_simt.cu=8.0" &
  wait; exit 0
fi

default="${2:?default build directory}"
failures=0
# case name, expected exit codes (space-separated), texts that must appear; the command follows --
expect() {
  local name="$1" codes="$2"; shift 2
  local texts=(); while [ "$1" != "--" ]; do texts+=("$1"); shift; done; shift
  local start=$SECONDS
  "$@" > "$out/doctor-$name.txt" 2>&1; local rc=$?
  local verdict=ok
  [[ " $codes " == *" $rc "* ]] || verdict="exit $rc, expected $codes"
  for t in "${texts[@]}"; do grep -qF -- "$t" "$out/doctor-$name.txt" || verdict="$verdict; missing '$t'"; done
  echo "[$name] exit $rc in $(( SECONDS - start )) s: $verdict"
  grep -E "^  (FAIL|WARN) " "$out/doctor-$name.txt" | cut -c1-220 | head -8
  [ "$verdict" = ok ] || failures=$((failures + 1))
}

# The default build passes, with the PyTorch and cuDNN libraries judged by --check.
torch_lib="$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cuda.so"))' 2>/dev/null)"
cudnn_libs=(/usr/lib/x86_64-linux-gnu/libcudnn_engines_precompiled.so.9* /usr/lib/x86_64-linux-gnu/libcudnn_engines_runtime_compiled.so.9*)
expect default "0" "summary: " "healthy (exit 0)" -- "$default/archbench" doctor --json "$out/doctor-default.json"
expect check-libs "0 1" "libtorch_cuda.so" "libcudnn_engines_precompiled" -- \
  "$default/archbench" doctor --filter 'matmul/gemm_simt/*' --check "$torch_lib" "${cudnn_libs[@]}"

# 222: a PTX image one ISA minor newer than this driver JITs (CUDA 13.0 -> ISA 9.0, so 9.1).
fx="$(mktemp -d)"
printf 'extern "C" __global__ void add_one(float* x) { x[threadIdx.x] += 1.0f; }\n' > "$fx/k.cu"
nvcc -ptx -arch=compute_90 "$fx/k.cu" -o "$fx/k.ptx" && sed -i 's/^\.version 9\.0$/.version 9.1/' "$fx/k.ptx" &&
  fatbinary --create="$fx/ptx_isa_9_1.fatbin" --image3=kind=ptx,sm=90,file="$fx/k.ptx"
expect ptx-isa-newer "0 1" "222" "ISA 9.1" "update the driver" -- \
  "$default/archbench" doctor --filter 'matmul/gemm_simt/*' --check "$fx/ptx_isa_9_1.fatbin"

# An sm_80-only build on a 9.0 device: nothing of ours loads.
expect sm80-only "1" "FAIL  [build-targets]" "does not declare this device's architecture" "9.0" -- \
  /tmp/dc-sm80/archbench doctor
# PTX-only for this device (8.0+PTX): runs through JIT; the JIT passes show what that costs.
expect ptx-jit "0" "WARN  [build-targets]" "relies on PTX JIT" -- \
  /tmp/dc-ptx/archbench doctor --jit-passes --filter 'matmul/*,norm/*,elementwise/*' 
# The same build with JIT disabled: 223 on every own kernel.
expect jit-disabled "1" "CUDA_DISABLE_PTX_JIT" "223" -- \
  env CUDA_DISABLE_PTX_JIT=1 CUDA_CACHE_DISABLE=1 /tmp/dc-ptx/archbench doctor --filter 'matmul/*,norm/*'
# A per-dtype gap: the f32 flash-attention file built for 8.0 only, the f16/bf16 one for 9.0.
expect dtype-gap "1" "attention/flash_simt/f32" "per-file override" "use attention_math instead of flash_simt for f32" \
  "own kernels work in bf16, f16 but not in f32" -- \
  /tmp/dc-gap/archbench doctor --filter 'attention/*'
rm -rf "$fx"
echo "doctor cases: $failures failed"
exit $(( failures > 0 ))
