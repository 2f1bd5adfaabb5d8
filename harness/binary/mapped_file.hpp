// A read-only memory map of a whole file (private to harness/binary).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace archbench::binary::detail {

class MappedFile {
 public:
  // Throws std::system_error when the file cannot be opened, stat-ed or mapped.
  explicit MappedFile(const std::string& path);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::span<const std::byte> bytes() const { return {data_, size_}; }
  // Restores read-ahead over [offset, offset + length) for a pass that reads it all; only a hint.
  void read_ahead(uint64_t offset, uint64_t length) const;
  // Drops the whole pages inside [offset, offset + length) from this process (they are read from
  // the file again if touched); only a hint.
  void release(uint64_t offset, uint64_t length) const;

 private:
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace archbench::binary::detail
