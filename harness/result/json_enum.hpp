// Enums in JSON, read by their names: one reader for every stored type, so that a name a table does
// not hold is rejected the same way everywhere (with the field, the value and every known name).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

// A field whose value this archbench does not know: a json exception, as every other malformed
// field gives (the loaders name the file and the operator).
[[noreturn]] inline void reject_field(const nlohmann::json& j, const std::string& what) {
#if NLOHMANN_JSON_VERSION_MAJOR > 3 || (NLOHMANN_JSON_VERSION_MAJOR == 3 && NLOHMANN_JSON_VERSION_MINOR >= 11)
  throw nlohmann::json::other_error::create(501, what, &j);
#else
  throw nlohmann::json::other_error::create(501, what, j);
#endif
}

// The enum j[key] names, by the enum's table; `field` is how errors call it ("image.status").
template <typename Enum, size_t N>
Enum read_enum(const nlohmann::json& j, const char* key, std::string_view field, const EnumNames<Enum, N>& names) {
  const auto value = j.at(key).get<std::string>();
  if (const auto e = parse_name(names, value)) return *e;
  std::string known;
  for (const auto& e : names) known += (known.empty() ? "'" : ", '") + std::string(e.name) + "'";
  reject_field(j, std::string(field) + " is '" + value + "', not one of " + known);
}

// The same, also taking `aliases`: older spellings a stored file may hold, read but never written.
template <typename Enum, size_t N, size_t A>
Enum read_enum(const nlohmann::json& j, const char* key, std::string_view field, const EnumNames<Enum, N>& names,
               const EnumNames<Enum, A>& aliases) {
  if (const auto e = parse_name(aliases, j.at(key).get<std::string>())) return *e;
  return read_enum(j, key, field, names);
}

}  // namespace archbench
