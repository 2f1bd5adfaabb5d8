// The one place that lists the operator families of this build.
#include "harness/ops/registry.hpp"
#include "kernels/elementwise/elementwise_operators.hpp"
#include "kernels/matmul/matmul_operators.hpp"
#include "kernels/norm/norm_operators.hpp"

namespace archbench {

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    kernels::matmul::register_operators(reg);
    kernels::norm::register_operators(reg);
    kernels::elementwise::register_operators(reg);
    return reg;
  }();
  return r;
}

}  // namespace archbench
