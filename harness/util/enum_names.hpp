// The reverse of an enum's name function: the value whose name is `name`, over the list of all
// values. The name function stays a switch without default (the compiler then names a value left
// without a name); parsing through it means the two directions cannot disagree.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace archbench {

template <typename Enum, size_t N, typename NameFn>
[[nodiscard]] std::optional<Enum> parse_by_name(const std::array<Enum, N>& values, NameFn name_of,
                                                std::string_view name) {
  for (Enum v : values) {
    if (name_of(v) == name) return v;
  }
  return std::nullopt;
}

}  // namespace archbench
