#include "harness/ops/id_filter.hpp"

#include <fnmatch.h>

#include <string>

namespace archbench {

bool id_matches(std::string_view filter, std::string_view id) {
  const std::string subject(id);
  size_t start = 0;
  while (true) {
    const size_t comma = filter.find(',', start);
    const std::string glob(filter.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (!glob.empty() && fnmatch(glob.c_str(), subject.c_str(), 0) == 0) return true;
    if (comma == std::string_view::npos) return false;
    start = comma + 1;
  }
}

}  // namespace archbench
