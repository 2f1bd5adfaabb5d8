// The RoPE operators: a Problem of their own because one input, the rotation table, is not random
// but Flux's pe for the sequence's positions (computed once per forward in Flux, so an input here).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "harness/ops/operator.hpp"

namespace archbench::kernels::elementwise {

// q or k [batch, heads, txt_tokens + grid_rows * grid_cols, dim] of a Flux joint sequence.
struct RopeShape {
  int batch = 1, heads = 24;
  int txt_tokens = 512, grid_rows = 64, grid_cols = 64;
  std::array<int, 3> axes_dim{16, 56, 56};  // sums to dim
  double theta = 1e4;
  [[nodiscard]] int tokens() const { return txt_tokens + grid_rows * grid_cols; }
  [[nodiscard]] int dim() const { return axes_dim[0] + axes_dim[1] + axes_dim[2]; }
};

class RopeOperator final : public Operator {
 public:
  RopeOperator(OperatorSpec spec, RopeShape shape) : Operator(std::move(spec)), shape_(shape) {}
  [[nodiscard]] std::vector<KernelRef> kernels() const override;
  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override;

 private:
  RopeShape shape_;
};

}  // namespace archbench::kernels::elementwise
