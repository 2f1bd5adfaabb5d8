#include "harness/device/field_cause.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace archbench::doctor {

std::string_view to_string(FieldCause c) {
  return static_cast<size_t>(c) < kFieldCauses.size() ? name_of(kFieldCauses, c) : "unknown-cause";
}

std::optional<FieldCause> parse_field_cause(std::string_view id) { return parse_name(kFieldCauses, id); }

std::span<const FieldCause> all_field_causes() {
  static constexpr auto kAll = values_of(kFieldCauses);
  return kAll;
}

}  // namespace archbench::doctor
