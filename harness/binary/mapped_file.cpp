#include "harness/binary/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

namespace archbench::binary::detail {

namespace {

[[noreturn]] void throw_errno(int err, const std::string& what) {
  throw std::system_error(err, std::generic_category(), what);
}

// Closes the descriptor on every path; the mapping stays valid after close.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  Fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd.fd < 0) throw_errno(errno, "cannot open " + path);
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0) throw_errno(errno, "cannot stat " + path);
  if (S_ISDIR(st.st_mode)) throw_errno(EISDIR, "cannot read " + path);
  if (!S_ISREG(st.st_mode)) throw_errno(EINVAL, "not a regular file: " + path);
  // mmap rejects length 0; an empty file is simply an empty view.
  if (st.st_size == 0) return;
  void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd.fd, 0);
  if (p == MAP_FAILED) throw_errno(errno, "cannot map " + path);
  // Headers are scattered over hundreds of MB: read-ahead around each one would cost more than it saves.
  ::madvise(p, static_cast<std::size_t>(st.st_size), MADV_RANDOM);
  data_ = static_cast<const std::byte*>(p);
  size_ = static_cast<std::size_t>(st.st_size);
}

void MappedFile::read_ahead(uint64_t offset, uint64_t length) const {
  if (offset >= size_) return;
  length = std::min<uint64_t>(length, size_ - offset);
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t begin = offset / page * page;  // madvise wants a page-aligned start
  ::madvise(const_cast<std::byte*>(data_) + begin, static_cast<std::size_t>(offset + length - begin), MADV_SEQUENTIAL);
}

void MappedFile::release(uint64_t offset, uint64_t length) const {
  if (offset >= size_) return;
  length = std::min<uint64_t>(length, size_ - offset);
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t begin = (offset + page - 1) / page * page;  // whole pages only: a neighbour may share the edges
  const uint64_t end = (offset + length) / page * page;
  if (end > begin) ::madvise(const_cast<std::byte*>(data_) + begin, static_cast<std::size_t>(end - begin), MADV_DONTNEED);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
}

}  // namespace archbench::binary::detail
