// A read-only memory map of a whole file (private to harness/binary).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace archbench::binary::detail {

class MappedFile {
 public:
  // Throws std::system_error when the file cannot be opened, stat-ed or mapped.
  explicit MappedFile(const std::string& path);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::span<const std::byte> bytes() const { return {data_, size_}; }
  // Copies [offset, offset + length) into `buf` (grown, never shrunk) with pread and returns it: a
  // pass over every payload by many threads costs no page faults on the mapping and no TLB
  // shootdowns from dropping pages again. Throws std::system_error on a read error.
  [[nodiscard]] std::span<const std::byte> read_at(uint64_t offset, uint64_t length, std::vector<std::byte>& buf) const;

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;  // kept open for read_at
  std::string path_;
};

}  // namespace archbench::binary::detail
