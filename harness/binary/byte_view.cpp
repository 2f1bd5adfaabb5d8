#include "harness/binary/byte_view.hpp"

#include <cstdio>

namespace archbench::binary::detail {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

void ErrorSite::fail(uint64_t relative, const std::string& message) const {
  if (context_.empty()) throw BinaryError(*path_, base_ + relative, message);
  throw BinaryError(*path_, base_, context_ + ", at byte " + hex(relative) + ": " + message);
}

}  // namespace archbench::binary::detail
