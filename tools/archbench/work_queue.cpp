#include "tools/archbench/work_queue.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <string>

#include "harness/util/unique_fd.hpp"

namespace archbench::cli {
namespace {

[[noreturn]] void fail(const std::string& path, const char* what) {
  throw std::runtime_error("work queue " + path + ": cannot " + what + ": " + std::strerror(errno));
}

// `path` opened with `flags`; closing it (when it goes) releases its lock.
UniqueFd open_queue(const std::string& path, int flags) {
  UniqueFd fd(::open(path.c_str(), flags | O_CLOEXEC, 0600));
  if (!fd.valid()) fail(path, "open");
  return fd;
}

void write_index(const UniqueFd& fd, const std::string& path, size_t index) {
  const std::string text = std::to_string(index) + "\n";
  if (::ftruncate(fd.get(), 0) != 0) fail(path, "truncate");
  if (::pwrite(fd.get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) fail(path, "write");
}

}  // namespace

void create_work_queue(const std::string& path) {
  const UniqueFd fd = open_queue(path, O_RDWR | O_CREAT);
  write_index(fd, path, 0);
}

std::optional<size_t> take_from_work_queue(const std::string& path, size_t count) {
  const UniqueFd fd = open_queue(path, O_RDWR);
  while (::flock(fd.get(), LOCK_EX) != 0) {
    if (errno != EINTR) fail(path, "lock");
  }
  char text[32] = {};
  const ssize_t n = ::pread(fd.get(), text, sizeof(text) - 1, 0);
  if (n < 0) fail(path, "read");
  size_t next = 0;
  const char* end = text + n;
  const auto [rest, ec] = std::from_chars(text, end, next);
  if (ec != std::errc{} || rest == text || (rest != end && *rest != '\n')) {
    throw std::runtime_error("work queue " + path + ": holds \"" + std::string(text, static_cast<size_t>(n)) +
                             "\", not the index of the next operator");
  }
  if (next >= count) return std::nullopt;
  write_index(fd, path, next + 1);
  return next;  // the lock goes with the descriptor
}

}  // namespace archbench::cli
