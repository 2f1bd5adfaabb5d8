// "family/name/dtype/shape": the one way an operator id is spelled. Here, below every other
// layer, so that code holding only the parts as text (a result, a path choice) spells it the same
// way as the registry (harness/ops/operator.hpp's operator_id, which takes a DType).
#pragma once

#include <string>
#include <string_view>

namespace archbench {

[[nodiscard]] inline std::string join_operator_id(std::string_view family, std::string_view name, std::string_view dtype,
                                                  std::string_view shape) {
  std::string id;
  id.reserve(family.size() + name.size() + dtype.size() + shape.size() + 3);
  id.append(family).append("/").append(name).append("/").append(dtype).append("/").append(shape);
  return id;
}

}  // namespace archbench
