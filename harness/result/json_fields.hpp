// Field lists: a type names its fields once, as calls field(key, member) in a template taking the
// field action (result_json.cpp, worker_protocol.cpp), and the one list both writes and reads it.
#pragma once

#include <nlohmann/json.hpp>

namespace archbench {

// The field action that writes each field into the object j.
inline auto field_writer(nlohmann::json& j) {
  return [&j](const char* key, const auto& value) { j[key] = value; };
}

// The field action that reads each field back from j (each one required).
inline auto field_reader(const nlohmann::json& j) {
  return [&j](const char* key, auto& value) { j.at(key).get_to(value); };
}

}  // namespace archbench
