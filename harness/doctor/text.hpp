// Small string helpers the doctor's parsers share.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace archbench::doctor {

// Pieces between separators, empty ones included ("a::b" -> a, "", b); "" -> none.
[[nodiscard]] std::vector<std::string> split(std::string_view s, char sep);
[[nodiscard]] std::string trim(std::string_view s);
[[nodiscard]] std::string join(const std::vector<std::string>& parts, std::string_view sep);
// Dotted versions compared component by component, numerically where both are numbers
// ("9.9" < "9.19"; "13" == "13.0"): -1, 0 or 1.
[[nodiscard]] int compare_versions(std::string_view a, std::string_view b);
// "a, b and 3 more" for long lists.
[[nodiscard]] std::string first_few(const std::vector<std::string>& items, size_t shown);

}  // namespace archbench::doctor
