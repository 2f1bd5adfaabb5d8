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
  uint64_t size = 0;  // bytes in the file (0 for SHT_NOBITS)
  uint32_t link = 0;
  uint64_t entsize = 0;
};

// Starts with 7f 'E' 'L' 'F'.
[[nodiscard]] bool has_elf_magic(Bytes data);

class ElfImage {
 public:
  // Throws BinaryError through `site` for anything outside the buffer or inconsistent.
  ElfImage(Bytes data, const ErrorSite& site);

  [[nodiscard]] uint16_t machine() const { return machine_; }
  [[nodiscard]] uint16_t type() const { return type_; }  // ET_REL, ET_EXEC, ET_DYN
  [[nodiscard]] uint32_t flags() const { return flags_; }
  [[nodiscard]] uint8_t abi_version() const { return abi_version_; }
  [[nodiscard]] const std::vector<ElfSection>& sections() const { return sections_; }
  [[nodiscard]] Bytes contents(const ElfSection& s) const { return data_.subspan(s.offset, s.size); }

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
