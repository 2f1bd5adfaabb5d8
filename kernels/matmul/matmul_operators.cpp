#include "kernels/matmul/matmul_operators.hpp"

#include <vector>
#include <memory>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <array>
#include <string>

#include <cuda_fp8.h>

#include "harness/ops/cublas_gemm.hpp"
#include "harness/ops/shaped_operator.hpp"
#include "kernels/common/sm90a_target.hpp"
#include "kernels/matmul/gemm_kernels.hpp"
#include "kernels/matmul/gemm_problem.hpp"
#include "kernels/matmul/gemm_wgmma.hpp"
#include "kernels/matmul/gemm_wgmma_tiling.hpp"

namespace archbench::kernels::matmul {
namespace {

// Shapes from docs/reference/workload.md, "The operator set".
struct NamedShape {
  GemmDims dims;
  const char* model;
};
constexpr std::array kShapes{
    NamedShape{{8192, 960, 320}, "SD1.5 QKV projection"},
    NamedShape{{8192, 2560, 320}, "SD1.5 GEGLU projection"},
    NamedShape{{4608, 12288, 3072}, "Flux MLP up"},
    NamedShape{{4096, 4096, 4096}, "square 4096"},
};

OperatorSpec make_spec(const char* name, DType dtype, Impl impl, arch::ComputeCapability min_cc, const NamedShape& s) {
  OperatorSpec spec = shaped_spec("matmul", name, dtype, impl, min_cc, s.dims, s.model);
  if (is_fp8(dtype)) spec.min_cc_why = impl == Impl::Own ? "wgmma" : "FP8 tensor cores";
  // FP8's own kernel answers to cuBLASLt's error on the same inputs (both accumulate in the tensor
  // cores' reduced-precision fp32; a wrong scale or a dropped k-slice is far outside 3x of it).
  if (is_fp8(dtype) && impl == Impl::Own) spec.oracle_twin = "gemm_cublas";
  return spec;
}

using GemmOperator = ShapedOperator<GemmProblem, GemmDims, GemmLaunch>;

void launch_simt(const GemmOperands& o, cudaStream_t s) {
  launch_gemm_simt_f32(o.a.as<float>(), o.b.as<float>(), o.c.as<float>(), o.dims.M, o.dims.N, o.dims.K, s);
}
void launch_tc_f16(const GemmOperands& o, cudaStream_t s) {
  launch_gemm_tc_f16(o.a.as<__half>(), o.b.as<__half>(), o.c.as<__half>(), o.dims.M, o.dims.N, o.dims.K, s);
}
void launch_tc_bf16(const GemmOperands& o, cudaStream_t s) {
  launch_gemm_tc_bf16(o.a.as<__nv_bfloat16>(), o.b.as<__nv_bfloat16>(), o.c.as<__nv_bfloat16>(), o.dims.M, o.dims.N,
                      o.dims.K, s);
}

void launch_wgmma_f16(const GemmOperands& o, cudaStream_t s) {
  launch_gemm_wgmma_f16(o.a.as<__half>(), o.b.as<__half>(), o.c.as<__half>(), o.dims.M, o.dims.N, o.dims.K, s);
}
void launch_wgmma_bf16(const GemmOperands& o, cudaStream_t s) {
  launch_gemm_wgmma_bf16(o.a.as<__nv_bfloat16>(), o.b.as<__nv_bfloat16>(), o.c.as<__nv_bfloat16>(), o.dims.M, o.dims.N,
                         o.dims.K, s);
}
void launch_wgmma_e4m3(const GemmOperands& o, cudaStream_t s) {
  launch_gemm_wgmma_e4m3(o.a.as<__nv_fp8_e4m3>(), o.b.as<__nv_fp8_e4m3>(), o.c.as<__nv_bfloat16>(), o.dims.M, o.dims.N,
                         o.dims.K, o.scale_a, o.scale_b, s);
}
void launch_wgmma_e5m2(const GemmOperands& o, cudaStream_t s) {
  launch_gemm_wgmma_e5m2(o.a.as<__nv_fp8_e5m2>(), o.b.as<__nv_fp8_e4m3>(), o.c.as<__nv_bfloat16>(), o.dims.M, o.dims.N,
                         o.dims.K, o.scale_a, o.scale_b, s);
}

// Every width a launch may pick (the choice depends on the device's SM count), each its own kernel.
std::vector<KernelRef> wgmma_kernels(const char* prefix, const void* (*address)(int)) {
  std::vector<KernelRef> refs;
  for (int width : kWgmmaTileWidths) {
    refs.push_back({std::string(prefix) + "_n" + std::to_string(width), address(width), sm90a_target()});
  }
  return refs;
}

GemmLaunch cublas_launch(DType math) {
  return [math](const GemmOperands& o, cudaStream_t s) {
    cublas_gemm_nt(math, o.a.buffer.get(), o.b.buffer.get(), o.c.buffer.get(), o.dims.M, o.dims.N, o.dims.K, s);
  };
}

// With fast accumulation, as the own FP8 kernel accumulates (and torchao's float8 forward asks).
GemmLaunch cublas_launch_fp8(DType a_type) {
  return [a_type](const GemmOperands& o, cudaStream_t s) {
    cublas_gemm_nt_fp8(a_type, o.a.buffer.get(), o.b.buffer.get(), o.c.buffer.get(), o.scale_a, o.scale_b, o.dims.M,
                       o.dims.N, o.dims.K, /*fast_accumulation=*/true, s);
  };
}

// FP8 tensor cores: Ada (8.9) and newer; cuBLASLt has FP8 kernels for them, not for Ampere or older.
constexpr arch::ComputeCapability kFp8TensorCores{8, 9};

}  // namespace

void register_operators(Registry& r) {
  for (const auto& shape : kShapes) {
    r.add(std::make_unique<GemmOperator>(make_spec("gemm_simt", DType::F32, Impl::Own, {7, 5}, shape), shape.dims,
                                         launch_simt, std::vector<KernelRef>{{"gemm_simt_f32", gemm_simt_f32_kernel()}}));
    r.add(std::make_unique<GemmOperator>(make_spec("gemm_tc", DType::F16, Impl::Own, {8, 0}, shape), shape.dims,
                                         launch_tc_f16, std::vector<KernelRef>{{"gemm_tc_f16", gemm_tc_f16_kernel()}}));
    r.add(std::make_unique<GemmOperator>(make_spec("gemm_tc", DType::BF16, Impl::Own, {8, 0}, shape), shape.dims,
                                         launch_tc_bf16, std::vector<KernelRef>{{"gemm_tc_bf16", gemm_tc_bf16_kernel()}}));
    r.add(std::make_unique<GemmOperator>(make_spec("gemm_wgmma", DType::F16, Impl::Own, {9, 0}, shape), shape.dims,
                                         launch_wgmma_f16, wgmma_kernels("gemm_wgmma_f16", gemm_wgmma_f16_kernel)));
    r.add(std::make_unique<GemmOperator>(make_spec("gemm_wgmma", DType::BF16, Impl::Own, {9, 0}, shape), shape.dims,
                                         launch_wgmma_bf16, wgmma_kernels("gemm_wgmma_bf16", gemm_wgmma_bf16_kernel)));
    r.add(std::make_unique<GemmOperator>(make_spec("gemm_wgmma", DType::E4M3, Impl::Own, {9, 0}, shape), shape.dims,
                                         launch_wgmma_e4m3, wgmma_kernels("gemm_wgmma_e4m3", gemm_wgmma_e4m3_kernel)));
    r.add(std::make_unique<GemmOperator>(make_spec("gemm_wgmma", DType::E5M2, Impl::Own, {9, 0}, shape), shape.dims,
                                         launch_wgmma_e5m2, wgmma_kernels("gemm_wgmma_e5m2", gemm_wgmma_e5m2_kernel)));
    for (DType d : {DType::E4M3, DType::E5M2}) {
      r.add(std::make_unique<GemmOperator>(make_spec("gemm_cublas", d, Impl::CuBLAS, kFp8TensorCores, shape),
                                           shape.dims, cublas_launch_fp8(d), std::vector<KernelRef>{}));
    }
    for (DType d : {DType::F32, DType::TF32, DType::F16, DType::BF16}) {
      const arch::ComputeCapability min_cc = (d == DType::TF32 || d == DType::BF16) ? arch::ComputeCapability{8, 0}
                                                                                    : arch::ComputeCapability{7, 5};
      r.add(std::make_unique<GemmOperator>(make_spec("gemm_cublas", d, Impl::CuBLAS, min_cc, shape), shape.dims,
                                           cublas_launch(d), std::vector<KernelRef>{}));
    }
  }
}

}  // namespace archbench::kernels::matmul
