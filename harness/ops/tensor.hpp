// Host and device tensors for checking operators. Inputs the float64 reference reads (the check
// scale) are drawn at random in float64 on the host, rounded to the storage type (so the reference
// sees exactly what the GPU sees) and uploaded; benchmark-scale inputs are drawn on the GPU.
// Outputs are poisoned with NaN before every run.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "harness/ops/check_result.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/util/cuda_raii.hpp"

namespace archbench {

struct HostTensor {
  DType dtype = DType::F32;
  std::vector<double> values;  // each exactly representable in dtype's storage
};

struct DeviceTensor {
  DType dtype = DType::F32;
  size_t numel = 0;
  DeviceBuffer buffer;
  template <typename T>
  [[nodiscard]] T* as() const { return buffer.as<T>(); }
};

// v rounded to dtype's storage type (f32 for f32 and tf32), exactly as the GPU stores it.
[[nodiscard]] double round_to_storage(DType dtype, double v);

// Uniform in [lo, hi), never all zeros; rounded to dtype's storage.
[[nodiscard]] HostTensor random_tensor(DType dtype, size_t numel, std::mt19937_64& rng, double lo = -1.0, double hi = 1.0);
[[nodiscard]] DeviceTensor upload(const HostTensor& t);
[[nodiscard]] DeviceTensor allocate(DType dtype, size_t numel);
// Uniform in [lo, hi] after rounding to dtype's storage, drawn on the device
// (device_tensor_kernels.hpp), or on the host and uploaded where this build has no image of the
// fill kernel for the device (other values for the same seed: a different generator).
[[nodiscard]] DeviceTensor random_device_tensor(DType dtype, size_t numel, uint64_t seed, double lo = -1.0,
                                                double hi = 1.0);
// One random input of a problem. With `keep`, drawn on the host and kept there for the float64
// reference (the check scale); without, drawn on the device, as no host code reads it (the
// benchmark scale).
[[nodiscard]] DeviceTensor random_input(DType dtype, size_t numel, std::mt19937_64& rng, HostTensor* keep,
                                        double lo = -1.0, double hi = 1.0);
// All bytes 0xFF: a NaN in f32, f16, bf16, e4m3 and e5m2, so an element the kernel never writes fails.
void poison(DeviceTensor& t);
// Waits for what cudaMemset and cudaMemcpy queued on the legacy default stream. Both return before
// the device memory is written (a memset always, a copy from pageable memory once the data is
// staged), and the problems launch on non-blocking streams, which do not wait for the legacy one:
// without this a kernel can run before its inputs land or its output is poisoned, and the poison
// can land after the kernel's output (seen on the H200: a quick run with eight workers reported
// every element of a small output non-finite). upload() and poison() call it; so must any other
// memset of a problem's buffers.
void finish_legacy_stream();
[[nodiscard]] std::vector<double> download(const DeviceTensor& t);

// Every element written (no poison left) and finite: the check for shapes beyond the CPU reference.
// Counted on the device where the build has an image for it, else after a download.
[[nodiscard]] CheckResult check_all_finite(const DeviceTensor& t);

[[nodiscard]] CheckResult compare_to_reference(const std::vector<double>& got, const std::vector<double>& ref, double tol);

}  // namespace archbench
