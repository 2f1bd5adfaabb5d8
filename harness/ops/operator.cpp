#include "harness/ops/operator.hpp"

#include <stdexcept>
#include <string>

#include "harness/util/operator_id.hpp"

namespace archbench {

void require_check_scale(bool has_host_inputs, const char* problem) {
  if (!has_host_inputs) throw std::logic_error(std::string(problem) + "::check needs a ProblemScale::Check problem");
}

std::string operator_id(const std::string& family, const std::string& name, DType dtype, const std::string& shape) {
  return join_operator_id(family, name, dtype_name(dtype), shape);
}

std::string Operator::id() const { return operator_id(spec_.family, spec_.name, spec_.dtype, spec_.shape); }

}  // namespace archbench
