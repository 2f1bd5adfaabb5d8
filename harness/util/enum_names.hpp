// An enum's names as one table beside the enum, {value, name} per enumerator: naming a value and
// parsing a name both read it, so the two directions cannot disagree, and iterating it lists every
// value. C++17, because CUDA sources include headers that hold tables.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string_view>

namespace archbench {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

template <typename Enum, size_t N>
using EnumNames = std::array<EnumName<Enum>, N>;

// The table of `entries`, which must hold the enumerator of value i at index i (in declaration
// order, none skipped), so that naming a value is an index. Tables are constexpr variables: an
// entry out of place stops the compile at the throw below.
template <typename Enum, size_t N>
constexpr EnumNames<Enum, N> enum_names(const EnumName<Enum> (&entries)[N]) {
  EnumNames<Enum, N> table{};
  for (size_t i = 0; i < N; ++i) {
    if (static_cast<size_t>(entries[i].value) != i) {
      throw std::logic_error("enum_names: entry i must hold the enumerator of value i");
    }
    table[i] = entries[i];
  }
  return table;
}

// The name of v; "?" for a value past the table: a cast from a number no enumerator has, or an
// enumerator added at the end of its enum without an entry, which no compiler catches (unlike a
// switch without default), so the table stands right under its enum.
template <typename Enum, size_t N>
[[nodiscard]] constexpr std::string_view name_of(const EnumNames<Enum, N>& table, Enum v) {
  const auto i = static_cast<size_t>(v);
  return i < N ? table[i].name : "?";
}

// Every value of the table, in order: for (Enum v : values_of(table)).
template <typename Enum, size_t N>
[[nodiscard]] constexpr std::array<Enum, N> values_of(const EnumNames<Enum, N>& table) {
  std::array<Enum, N> values{};
  for (size_t i = 0; i < N; ++i) values[i] = table[i].value;
  return values;
}

// The value named `name`; nullopt for a name the table does not hold. Works on any list of
// entries, also one of aliases that is not indexed by value.
template <typename Enum, size_t N>
[[nodiscard]] constexpr std::optional<Enum> parse_name(const EnumNames<Enum, N>& table, std::string_view name) {
  for (const auto& e : table) {
    if (e.name == name) return e.value;
  }
  return std::nullopt;
}

}  // namespace archbench
