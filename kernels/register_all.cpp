// The one place that lists the operator families of this build.
#include "harness/ops/registry.hpp"
#include "kernels/matmul/matmul_operators.hpp"

namespace archbench {

const Registry& registry() {
  static const Registry r = [] {
    Registry reg;
    kernels::matmul::register_operators(reg);
    return reg;
  }();
  return r;
}

}  // namespace archbench
