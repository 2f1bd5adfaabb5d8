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

void write_all(int fd, const std::string& path, const std::string& content, const std::string& tmp) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      if (!tmp.empty()) ::unlink(tmp.c_str());
      fail(path, "write");
    }
    done += static_cast<size_t>(n);
  }
}

}  // namespace

void write_file_atomically(const std::string& given, const std::string& content) {
  // A device, pipe or socket (`--json /dev/null`, /dev/stdout, a FIFO) is written as a stream: renaming
  // a temporary file over it would replace the device node itself (as root, /dev/null).
  struct stat st{};
  if (::stat(given.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    const int fd = ::open(given.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) fail(given, "open");
    write_all(fd, given, content, "");
    ::close(fd);
    return;
  }
  // Through a symbolic link, the file it names is replaced, and the link stays.
  std::string path = given;
  struct stat lst{};
  if (::lstat(given.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    std::error_code ec;
    path = std::filesystem::weakly_canonical(given, ec).string();
    if (ec) fail(given, "resolve symbolic link");
  }
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) fail(path, "create temporary file");
  write_all(fd, path, content, tmpl);
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
