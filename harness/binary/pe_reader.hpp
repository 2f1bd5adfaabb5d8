// Section table and imported DLL names of a Windows PE/COFF image (.dll, .pyd, .exe), private to
// harness/binary. CUDA DLLs carry their fatbin in a section named ".nv_fatb" (".nv_fatbin" cut to
// PE's 8 characters) and relocatable device code in "__nv_rel" (docs/reference/stack.md,
// "Windows binaries"). Every offset is validated against the buffer; a bad one fails through the
// ErrorSite, naming the file offset.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/binary/byte_view.hpp"

namespace archbench::binary::detail {

struct PeSection {
  std::string name;  // at most 8 characters, NULs removed
  uint32_t virtual_address = 0;
  uint32_t virtual_size = 0;
  uint32_t raw_offset = 0;  // file offset of the section's bytes
  uint32_t raw_size = 0;    // bytes in the file
  uint64_t header_offset = 0;  // file offset of its section header
  // Its bytes lie beyond the end of the file: reading it fails, the other sections still count.
  bool past_end = false;
};

// "MZ" at 0 and "PE\0\0" where e_lfanew points.
[[nodiscard]] bool has_pe_magic(Bytes data);

class PeImage {
 public:
  PeImage(Bytes data, const ErrorSite& site);
  [[nodiscard]] const std::vector<PeSection>& sections() const { return sections_; }
  [[nodiscard]] uint16_t machine() const { return machine_; }
  // The DLLs named by the import directory ("cudart64_12.dll"), in file order.
  [[nodiscard]] const std::vector<std::string>& imported_dlls() const { return imports_; }

 private:
  [[nodiscard]] std::optional<uint64_t> file_offset_of(uint64_t rva) const;
  void read_imports(uint32_t rva, uint32_t size, const ErrorSite& site);

  Bytes data_;
  uint16_t machine_ = 0;
  std::vector<PeSection> sections_;
  std::vector<std::string> imports_;
};

}  // namespace archbench::binary::detail
