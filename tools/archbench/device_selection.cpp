#include "tools/archbench/device_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "tools/archbench/selection.hpp"

namespace archbench::cli {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<int> parse_device_selection(std::string_view spec, int visible) {
  const std::string_view whole = trim(spec);
  std::string lower(whole);
  std::ranges::transform(lower, lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::vector<int> out;
  if (lower == "all") {
    for (int i = 0; i < visible; ++i) out.push_back(i);
    return out;
  }
  const std::string range = visible < 0    ? std::string("not known before CUDA starts")
                            : visible > 0 ? fmt::format("0 to {}", visible - 1)
                                          : std::string("none: no device is visible");
  auto bad = [&](const std::string& why) {
    return UsageError(fmt::format("--device '{}': {}; give 'all', an index or a comma-separated list (0,1) of CUDA "
                                  "device indices (visible: {})",
                                  spec, why, range));
  };
  size_t start = 0;
  while (start <= whole.size()) {
    size_t end = whole.find(',', start);
    if (end == std::string_view::npos) end = whole.size();
    const std::string_view item = trim(whole.substr(start, end - start));
    int index = -1;
    const auto r = std::from_chars(item.data(), item.data() + item.size(), index);
    if (item.empty() || r.ec != std::errc{} || r.ptr != item.data() + item.size() || index < 0) {
      throw bad(item.empty() ? std::string("an empty item") : fmt::format("'{}' is not a device index", item));
    }
    if (visible >= 0 && index >= visible) throw bad(fmt::format("device {} is not visible", index));
    if (std::ranges::find(out, index) != out.end()) throw bad(fmt::format("device {} is listed twice", index));
    out.push_back(index);
    start = end + 1;
  }
  return out;
}

}  // namespace archbench::cli
