#include "harness/stack/declared_arch_list.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace archbench::stack {
namespace {

// "sm_90", "sm_90a", "sm_100f", "compute_120": a prefix, two or three digits, an optional suffix
// on SASS targets.
bool is_target(std::string_view t) {
  std::string_view digits;
  bool sass = false;
  if (t.starts_with("sm_")) {
    digits = t.substr(3);
    sass = true;
  } else if (t.starts_with("compute_")) {
    digits = t.substr(8);
  } else {
    return false;
  }
  if (sass && !digits.empty() && (digits.back() == 'a' || digits.back() == 'f')) digits.remove_suffix(1);
  return (digits.size() == 2 || digits.size() == 3) &&
         std::ranges::all_of(digits, [](char c) { return c >= '0' && c <= '9'; });
}

// The targets of `s` when it is made only of them (two or more, single spaces), else empty.
std::vector<std::string> as_targets(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const size_t space = s.find(' ');
    const std::string_view t = s.substr(0, space);
    if (!is_target(t)) return {};
    out.emplace_back(t);
    if (space == std::string_view::npos) break;
    s.remove_prefix(space + 1);
    if (s.empty()) return {};  // a trailing space: not the string we look for
  }
  return out.size() >= 2 ? out : std::vector<std::string>{};
}

}  // namespace

bool may_declare_arch_list(std::string_view file_name) {
  return file_name == "libtorch_python.so" || file_name == "torch_python.dll";
}

std::vector<std::string> find_declared_arch_list(std::span<const std::byte> bytes) {
  const auto* data = reinterpret_cast<const char*>(bytes.data());
  const std::string_view all(data, bytes.size());
  // Every candidate starts with "sm_" at the beginning of a NUL-terminated string.
  for (size_t at = all.find("sm_"); at != std::string_view::npos; at = all.find("sm_", at + 1)) {
    // Inside a longer text ("... sm_80 sm_90"), not the start of a string of its own.
    if (at > 0 && all[at - 1] >= ' ' && all[at - 1] <= '~') continue;
    const size_t end = all.find('\0', at);
    if (end == std::string_view::npos) break;
    if (end - at > 4096) continue;  // far longer than any real list
    if (auto targets = as_targets(all.substr(at, end - at)); !targets.empty()) return targets;
  }
  return {};
}

std::vector<std::string> read_declared_arch_list(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  std::vector<std::string> out;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    const auto size = static_cast<size_t>(st.st_size);
    void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      out = find_declared_arch_list({static_cast<const std::byte*>(map), size});
      ::munmap(map, size);
    }
  }
  ::close(fd);
  return out;
}

}  // namespace archbench::stack
