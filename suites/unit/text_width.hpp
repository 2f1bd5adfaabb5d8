// The lines of a text wider than a terminal of 120 columns (for the width tests' messages).
#pragma once

#include <string>
#include <string_view>

#include "harness/util/text_wrap.hpp"

namespace archbench::testing_support {

inline std::string too_wide(const std::string& s, size_t columns = text::kColumns) {
  std::string out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    const std::string_view line(s.data() + start, end - start);
    if (text::width(line) > columns) out += std::to_string(text::width(line)) + ": " + std::string(line) + "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace archbench::testing_support
