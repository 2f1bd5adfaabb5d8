#include "harness/binary/soname.hpp"

#include <elf.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "harness/binary/byte_view.hpp"
#include "harness/binary/elf_reader.hpp"
#include "harness/binary/mapped_file.hpp"

namespace archbench::binary {

std::optional<std::string> read_soname(const std::string& path) {
  try {
    const detail::MappedFile file(path);
    const detail::Bytes data = file.bytes();
    if (!detail::has_elf_magic(data)) return std::nullopt;
    const detail::ErrorSite site(path, 0);
    const detail::ElfImage elf(data, site);
    const auto& sections = elf.sections();
    for (const auto& s : sections) {
      if (s.type != SHT_DYNAMIC || s.link >= sections.size()) continue;
      const auto& strtab = sections[s.link];
      const detail::Bytes dyn = elf.contents(s, site);
      const detail::Bytes strings = elf.contents(strtab, site);
      for (uint64_t at = 0; detail::fits(at, sizeof(Elf64_Dyn), dyn.size()); at += sizeof(Elf64_Dyn)) {
        const auto d = detail::load<Elf64_Dyn>(dyn, at);
        if (d.d_tag == DT_NULL) break;
        if (d.d_tag == DT_SONAME) return std::string(detail::string_at(strings, strtab.offset, d.d_un.d_val, site));
      }
    }
  } catch (const std::exception&) {
    // Unreadable or malformed: the caller falls back to the file name.
  }
  return std::nullopt;
}

}  // namespace archbench::binary
