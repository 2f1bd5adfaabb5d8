// Section headers of an ELF64 little-endian image: host executables, libraries and objects, and
// cubins (private to harness/binary). Everything is validated against the buffer on construction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/binary/byte_view.hpp"

namespace archbench::binary::detail {

inline constexpr uint16_t kEmCuda = 190;  // e_machine of a cubin

struct ElfSection {
  std::string_view name;  // points into the buffer
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;  // bytes in the file (0 for a section that has none, see has_file_data)
  uint32_t link = 0;
  uint64_t entsize = 0;
  // Its header declares bytes beyond the end of the file. Such a section does not make the file
  // unreadable: only reading it fails (ElfImage::contents), so the other sections still count.
  bool past_end = false;
};

// Whether sections of this type hold bytes in the file. SHT_NOBITS (.bss) does not, nor do
// CUDA's own uninitialised-memory types in cubins: .nv.global (0x70000007) and .nv.shared.*
// (0x7000000a), whose sizes are device memory, often larger than the file.
[[nodiscard]] bool has_file_data(uint32_t section_type);

// Starts with 7f 'E' 'L' 'F'.
[[nodiscard]] bool has_elf_magic(Bytes data);

class ElfImage {
 public:
  // Throws BinaryError through `site` for headers outside the buffer or inconsistent; a section
  // whose bytes lie outside it is kept, marked past_end.
  ElfImage(Bytes data, const ErrorSite& site);

  [[nodiscard]] uint16_t machine() const { return machine_; }
  [[nodiscard]] uint16_t type() const { return type_; }  // ET_REL, ET_EXEC, ET_DYN
  [[nodiscard]] uint32_t flags() const { return flags_; }
  [[nodiscard]] uint8_t abi_version() const { return abi_version_; }
  [[nodiscard]] const std::vector<ElfSection>& sections() const { return sections_; }
  // A section's bytes; fails through `site` for a section past the end of the file.
  [[nodiscard]] Bytes contents(const ElfSection& s, const ErrorSite& site) const;

 private:
  Bytes data_;
  uint16_t machine_ = 0;
  uint16_t type_ = 0;
  uint32_t flags_ = 0;
  uint8_t abi_version_ = 0;
  std::vector<ElfSection> sections_;
};

// DT_NEEDED entries of the dynamic section ("libcudart.so.13"), in file order; empty for a file
// without one (a static executable, an object, a cubin).
[[nodiscard]] std::vector<std::string> needed_libraries(const ElfImage& elf, const ErrorSite& site);

// The NUL-terminated string at `offset` of a string table; fails through `site` when it is not.
[[nodiscard]] std::string_view string_at(Bytes table, uint64_t table_offset, uint64_t offset, const ErrorSite& site);

}  // namespace archbench::binary::detail
