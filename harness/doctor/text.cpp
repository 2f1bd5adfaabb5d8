#include "harness/doctor/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace archbench::doctor {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  for (;;) {
    const size_t at = s.find(sep, start);
    out.emplace_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return out;
}

std::string trim(std::string_view s) {
  auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

int compare_versions(std::string_view a, std::string_view b) {
  const auto pa = split(a, '.'), pb = split(b, '.');
  auto numeric = [](const std::string& s) {
    return !s.empty() && s.size() < 18 &&
           std::ranges::all_of(s, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  };
  for (size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
    const std::string x = i < pa.size() ? pa[i] : "0", y = i < pb.size() ? pb[i] : "0";
    if (numeric(x) && numeric(y)) {
      const long long nx = std::stoll(x), ny = std::stoll(y);
      if (nx != ny) return nx < ny ? -1 : 1;
    } else if (x != y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

std::string first_few(const std::vector<std::string>& items, size_t shown) {
  std::vector<std::string> head(items.begin(),
                                items.begin() + static_cast<std::ptrdiff_t>(std::min(shown, items.size())));
  std::string s = join(head, ", ");
  if (items.size() > shown) s += " and " + std::to_string(items.size() - shown) + " more";
  return s;
}

}  // namespace archbench::doctor
