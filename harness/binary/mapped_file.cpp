#include "harness/binary/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "harness/util/unique_fd.hpp"

namespace archbench::binary::detail {

namespace {

[[noreturn]] void throw_errno(int err, const std::string& what) {
  throw std::system_error(err, std::generic_category(), what);
}

}  // namespace

MappedFile::MappedFile(const std::string& path) : path_(path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));  // the mapping stays valid after close
  if (!fd.valid()) throw_errno(errno, "cannot open " + path);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_errno(errno, "cannot stat " + path);
  if (S_ISDIR(st.st_mode)) throw_errno(EISDIR, "cannot read " + path);
  if (!S_ISREG(st.st_mode)) throw_errno(EINVAL, "not a regular file: " + path);
  // mmap rejects length 0; an empty file is simply an empty view.
  if (st.st_size == 0) return;
  void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (p == MAP_FAILED) throw_errno(errno, "cannot map " + path);
  // Headers are scattered over hundreds of MB: read-ahead around each one would cost more than it saves.
  ::madvise(p, static_cast<std::size_t>(st.st_size), MADV_RANDOM);
  data_ = static_cast<const std::byte*>(p);
  size_ = static_cast<std::size_t>(st.st_size);
  fd_ = fd.release();
}

std::span<const std::byte> MappedFile::read_at(uint64_t offset, uint64_t length, std::vector<std::byte>& buf) const {
  if (offset > size_ || length > size_ - offset) throw_errno(EINVAL, "read past the end of " + path_);
  if (buf.size() < length) buf.resize(length);
  uint64_t done = 0;
  while (done < length) {
    const ssize_t n = ::pread(fd_, buf.data() + done, static_cast<std::size_t>(length - done), static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_errno(errno, "cannot read " + path_);
    if (n == 0) throw_errno(EIO, "file shrank while being read: " + path_);
    done += static_cast<uint64_t>(n);
  }
  return {buf.data(), static_cast<std::size_t>(length)};
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::byte*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace archbench::binary::detail
