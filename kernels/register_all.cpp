// The one place that lists the operator families of this build.
#include "harness/ops/registry.hpp"
#include "kernels/conv/conv_operators.hpp"
#include "kernels/attention/attention_operators.hpp"
#include "kernels/composite/composite_operators.hpp"
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
    kernels::conv::register_operators(reg);
    kernels::attention::register_operators(reg);
    kernels::composite::register_operators(reg);
    for (auto add : TestOperators::all()) add(reg);  // test executables only
    return reg;
  }();
  return r;
}

}  // namespace archbench
