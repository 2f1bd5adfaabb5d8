// An operator: what it computes (spec), which __global__ kernels it launches (for the image
// probe), and how to build a runnable problem with its float64 reference check.
#pragma once

#include <string_view>
#include <utility>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/arch/compat.hpp"
#include "harness/arch/target.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/ops/impl.hpp"
#include "harness/ops/tensor.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench {


struct OperatorSpec {
  std::string family;  // "matmul"
  std::string name;    // "gemm_tc"
  DType dtype = DType::F32;
  std::string shape;   // benchmark shape, e.g. "M8192_N960_K320"
  std::string model;   // where the shape comes from, e.g. "SD1.5 QKV"
  Impl impl = Impl::Own;
  arch::ComputeCapability min_cc{7, 5};  // below this the operator is "unsupported", not "missing"
  std::string min_cc_why;                // what min_cc brings ("FP8 tensor cores"), for that verdict
  double flops = 0;    // at the benchmark shape
  double bytes = 0;    // ideal DRAM traffic at the benchmark shape
  // For an own kernel with a library twin at the same family/dtype/shape: the twin's name (for
  // example "conv_cudnn_nhwc"). Low-precision results must then be within 3x the twin's error on
  // the same inputs (the FlashAttention-style oracle); empty when there is no twin.
  std::string oracle_twin;
};

// The spec of an operator at one shape, from a dims type that knows its name, FLOPs and ideal
// bytes per dtype (GemmDims, ConvDims, AttentionDims: str(), flops(), bytes(DType)).
template <typename Dims>
[[nodiscard]] OperatorSpec shaped_spec(std::string family, std::string name, DType dtype, Impl impl,
                                       arch::ComputeCapability min_cc, const Dims& dims, std::string model) {
  OperatorSpec spec;
  spec.family = std::move(family);
  spec.name = std::move(name);
  spec.dtype = dtype;
  spec.shape = dims.str();
  spec.model = std::move(model);
  spec.impl = impl;
  spec.min_cc = min_cc;
  spec.flops = dims.flops();
  spec.bytes = dims.bytes(dtype);
  return spec;
}

// "family/name/dtype/shape" (harness/util/operator_id.hpp) for Operator::id and a twin's id.
[[nodiscard]] std::string operator_id(const std::string& family, const std::string& name, DType dtype,
                                      const std::string& shape);

// A host stub of a __global__ function, for cudaFuncGetAttributes.
struct KernelRef {
  std::string name;
  const void* host_stub = nullptr;  // null only for a single-target kernel this build has no target for
  // Set for a kernel compiled for one target of the list, not all of it (arch/compat.hpp).
  std::optional<arch::SingleTarget> only = std::nullopt;
};

// One instance of an operator at one shape, with its device buffers and host inputs.
class Problem {
 public:
  virtual ~Problem() = default;
  [[nodiscard]] virtual std::string shape() const = 0;
  virtual void poison_output() = 0;
  virtual void launch(cudaStream_t stream) = 0;  // enqueue one run; never synchronizes
  // Downloads the output and compares it with the float64 CPU reference.
  [[nodiscard]] virtual CheckResult check() const = 0;
  // Every output element written and finite (for shapes too large for the CPU reference).
  [[nodiscard]] virtual CheckResult check_finite() const = 0;
  // What a library twin chose at this shape (cuDNN's algorithm and math type, ...), recorded with
  // the result: a library may choose differently between processes, and times move with it.
  [[nodiscard]] virtual std::string implementation() const { return {}; }
};

// Check: a shape small enough for the float64 CPU reference, keeping what drives rounding
// error (the reduction length); Bench: the real workload shape, whose inputs are drawn on the GPU
// and kept nowhere on the host, so check() cannot run there.
enum class ProblemScale { Check, Bench };

// The guard every Problem::check() starts with: `has_host_inputs` false (a benchmark-scale
// problem) is a caller's mistake, std::logic_error naming `problem`.
void require_check_scale(bool has_host_inputs, const char* problem);

class Operator {
 public:
  explicit Operator(OperatorSpec spec) : spec_(std::move(spec)) {}
  virtual ~Operator() = default;
  Operator(const Operator&) = delete;
  Operator& operator=(const Operator&) = delete;

  [[nodiscard]] const OperatorSpec& spec() const { return spec_; }
  // "matmul/gemm_tc/f16/M8192_N960_K320": unique, and what --filter globs match.
  [[nodiscard]] std::string id() const;
  // The kernels this operator launches; empty for library operators.
  [[nodiscard]] virtual std::vector<KernelRef> kernels() const { return {}; }
  [[nodiscard]] virtual std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const = 0;

 private:
  OperatorSpec spec_;
};

}  // namespace archbench
