#include "harness/run/ceilings.hpp"

#include <string>
#include <algorithm>

#include <cstdio>

#include "harness/ops/cublas_gemm.hpp"
#include "harness/ops/tensor.hpp"
#include "harness/run/timer_floor.hpp"
#include "harness/util/cuda_check.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench {
namespace {


double gemm_tflops_at(int n, DType math, cudaStream_t stream, size_t l2_bytes, const std::string& uuid) {
  const DType storage = storage_dtype(math);
  const size_t n2 = static_cast<size_t>(n) * n;
  // Random (never zero) operands: zeros run measurably faster on tensor cores.
  const DeviceTensor a = random_device_tensor(storage, n2, 1234), b = random_device_tensor(storage, n2, 5678);
  const DeviceTensor c = allocate(result_dtype(math), n2);
  const DeviceTensor scale_a = upload(HostTensor{DType::F32, {1.0}}), scale_b = upload(HostTensor{DType::F32, {1.0}});
  auto launch = [&](cudaStream_t s) {
    if (math == DType::E4M3) {
      cublas_gemm_nt_fp8(DType::E4M3, a.buffer.get(), b.buffer.get(), c.buffer.get(), scale_a.as<float>(),
                         scale_b.as<float>(), n, n, n, /*fast_accumulation=*/true, s);
    } else {
      cublas_gemm_nt(math, a.buffer.get(), b.buffer.get(), c.buffer.get(), n, n, n, s);
    }
  };
  TimerConfig cfg;
  cfg.max_seconds = 0.5;
  cfg.device_uuid = uuid;  // each ceiling starts out of the power cap, as every operator does
  const TimingResult t = time_launches(launch, stream, cfg, l2_bytes);
  return 2.0 * n * n * n / (t.median_ms * 1e-3) / 1e12;
}

// The better of two square sizes: one size alone can understate the ceiling (8192³ samples are long
// enough to bring the power cap on within the sampling).
double gemm_tflops(DType math, cudaStream_t stream, size_t l2_bytes, const std::string& uuid) {
  return std::max(gemm_tflops_at(4096, math, stream, l2_bytes, uuid), gemm_tflops_at(8192, math, stream, l2_bytes, uuid));
}

double copy_gbps(cudaStream_t stream, size_t l2_bytes, const std::string& uuid) {
  const size_t bytes = size_t{1} << 30;  // 1 GiB each way: far beyond any L2
  DeviceBuffer src(bytes), dst(bytes);
  ARCHBENCH_CUDA_CHECK(cudaMemset(src.get(), 0x3c, bytes));
  finish_legacy_stream();  // the copies run on a non-blocking stream
  auto launch = [&](cudaStream_t s) {
    ARCHBENCH_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s));
  };
  TimerConfig cfg;
  cfg.max_seconds = 0.3;
  cfg.device_uuid = uuid;
  const TimingResult t = time_launches(launch, stream, cfg, l2_bytes);
  return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;  // read + write
}

std::string fmt1(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

}  // namespace

Ceilings measure_ceilings(cudaStream_t stream, size_t l2_bytes, const std::string& device_uuid, bool fp8) {
  Ceilings c;
  c.f32_tflops = gemm_tflops(DType::F32, stream, l2_bytes, device_uuid);
  c.tf32_tflops = gemm_tflops(DType::TF32, stream, l2_bytes, device_uuid);
  c.f16_tflops = gemm_tflops(DType::F16, stream, l2_bytes, device_uuid);
  c.bf16_tflops = gemm_tflops(DType::BF16, stream, l2_bytes, device_uuid);
  if (fp8) {
    // Best effort: a library without an FP8 kernel for this device costs the FP8 roof, not the run
    // (the FP8 operators then say why themselves).
    try {
      c.e4m3_tflops = gemm_tflops(DType::E4M3, stream, l2_bytes, device_uuid);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "archbench: the FP8 ceiling was not measured: %s\n", e.what());
    }
  }
  c.dram_gbps = copy_gbps(stream, l2_bytes, device_uuid);
  try {
    c.timer_floor_ms = measure_timer_floor_ms(stream, l2_bytes);
  } catch (const CudaError&) {
    // No image of archbench's own kernels for this device (the operators say why): floor unknown.
    c.timer_floor_ms = 0;
  }
  return c;
}

void apply_roofline(TimingResult& t, double flops, double bytes, DType math, const Ceilings& c) {
  const double seconds = t.median_ms * 1e-3;
  t.tflops = flops / seconds / 1e12;
  t.gbps = bytes / seconds / 1e9;
  double peak = c.f32_tflops;
  if (math == DType::TF32) peak = c.tf32_tflops;
  if (math == DType::F16) peak = c.f16_tflops;
  if (math == DType::BF16) peak = c.bf16_tflops;
  if (is_fp8(math)) peak = c.e4m3_tflops;  // e5m2 x e4m3 runs at e4m3's rate
  const double compute_floor = peak > 0 ? flops / (peak * 1e12) : 0;
  const double memory_floor = c.dram_gbps > 0 ? bytes / (c.dram_gbps * 1e9) : 0;
  if (compute_floor >= memory_floor) {
    t.ceiling = std::string(dtype_name(math)) + " cuBLAS " + fmt1(peak) + " TFLOP/s";
  } else {
    t.ceiling = "copy " + fmt1(c.dram_gbps) + " GB/s";
  }
  t.pct_of_ceiling = seconds > 0 ? 100.0 * std::max(compute_floor, memory_floor) / seconds : 0;
}

}  // namespace archbench
