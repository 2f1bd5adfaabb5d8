#include "harness/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace archbench {
namespace {

[[noreturn]] void fail(const std::string& path, const char* step) {
  throw std::runtime_error("cannot write " + path + ": " + step + ": " + std::strerror(errno));
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) fail(path, "create temporary file");
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(tmpl.c_str());
      fail(path, "write");
    }
    done += static_cast<size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    fail(path, "fsync");
  }
  ::close(fd);
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    ::unlink(tmpl.c_str());
    fail(path, "rename");
  }
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);  // best effort: the rename is durable once the directory is
    ::close(dfd);
  }
}

}  // namespace archbench
