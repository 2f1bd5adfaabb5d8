// Host and device tensors for checking operators: inputs are drawn at random in float64,
// rounded to the storage type (so the float64 reference sees exactly what the GPU sees),
// uploaded, and outputs are poisoned with NaN before every run.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

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
// All bytes 0xFF: a NaN in f32, f16 and bf16, so an element the kernel never writes fails.
void poison(DeviceTensor& t);
[[nodiscard]] std::vector<double> download(const DeviceTensor& t);

struct CheckResult {
  bool passed = false;
  double rel_error = 0;      // ||got - ref||_2 / ||ref||_2
  double max_abs_error = 0;
  double tolerance = 0;
  size_t non_finite = 0;     // NaN/Inf in the output (never passes)
  size_t elements = 0;
};

// Every element written (no poison left) and finite: the check for shapes beyond the CPU reference.
[[nodiscard]] CheckResult check_all_finite(const DeviceTensor& t);

[[nodiscard]] CheckResult compare_to_reference(const std::vector<double>& got, const std::vector<double>& ref, double tol);

}  // namespace archbench
