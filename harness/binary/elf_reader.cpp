#include "harness/binary/elf_reader.hpp"
#include "harness/binary/binary_file.hpp"

#include <elf.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace archbench::binary::detail {

bool has_file_data(uint32_t section_type) {
  constexpr uint32_t kShtCudaGlobal = 0x70000007;  // .nv.global
  constexpr uint32_t kShtCudaShared = 0x7000000a;  // .nv.shared.<kernel>
  return section_type != SHT_NOBITS && section_type != kShtCudaGlobal && section_type != kShtCudaShared;
}

bool has_elf_magic(Bytes data) {
  return data.size() >= SELFMAG && std::memcmp(data.data(), ELFMAG, SELFMAG) == 0;
}

std::string_view string_at(Bytes table, uint64_t table_offset, uint64_t offset, const ErrorSite& site) {
  if (offset >= table.size()) site.fail(table_offset, "string offset " + hex(offset) + " past its table");
  const auto* begin = reinterpret_cast<const char*>(table.data()) + offset;
  const void* nul = std::memchr(begin, 0, table.size() - offset);
  if (nul == nullptr) site.fail(table_offset + offset, "unterminated string");
  return {begin, static_cast<std::size_t>(static_cast<const char*>(nul) - begin)};
}

ElfImage::ElfImage(Bytes data, const ErrorSite& site) : data_(data) {
  if (!fits(0, sizeof(Elf64_Ehdr), data.size())) site.fail(0, "truncated ELF header");
  const auto eh = load<Elf64_Ehdr>(data, 0);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64) site.fail(EI_CLASS, "not a 64-bit ELF");
  if (eh.e_ident[EI_DATA] != ELFDATA2LSB) site.fail(EI_DATA, "not a little-endian ELF");
  machine_ = eh.e_machine;
  type_ = eh.e_type;
  flags_ = eh.e_flags;
  abi_version_ = eh.e_ident[EI_ABIVERSION];
  if (eh.e_shoff == 0) return;  // no section headers: nothing to read (valid for some ELF files)

  if (eh.e_shentsize < sizeof(Elf64_Shdr)) site.fail(offsetof(Elf64_Ehdr, e_shentsize), "section header size too small");
  if (!fits(eh.e_shoff, sizeof(Elf64_Shdr), data.size())) site.fail(offsetof(Elf64_Ehdr, e_shoff), "section header table past the end of the file");
  // Extended numbering: counts too large for the header live in section 0.
  const auto sh0 = load<Elf64_Shdr>(data, eh.e_shoff);
  uint64_t count = eh.e_shnum != 0 ? eh.e_shnum : sh0.sh_size;
  uint64_t strndx = eh.e_shstrndx != SHN_XINDEX ? eh.e_shstrndx : sh0.sh_link;
  // A count that cannot fit in the file fails the same check as a short table; no multiplication overflows.
  if (count > (data.size() - eh.e_shoff) / eh.e_shentsize) site.fail(offsetof(Elf64_Ehdr, e_shoff), "section header table past the end of the file");
  if (strndx >= count && strndx != SHN_UNDEF) site.fail(offsetof(Elf64_Ehdr, e_shstrndx), "section name table index out of range");

  std::vector<Elf64_Shdr> raw;
  raw.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t at = eh.e_shoff + i * eh.e_shentsize;
    auto sh = load<Elf64_Shdr>(data, at);
    if (!has_file_data(sh.sh_type)) sh.sh_offset = sh.sh_size = 0;  // occupies no file bytes; its offset may point anywhere
    raw.push_back(sh);
  }
  // SHN_UNDEF: no name table, every section is unnamed. Without its names no section can be found.
  const bool named = strndx != SHN_UNDEF;
  if (named && !fits(raw[strndx].sh_offset, raw[strndx].sh_size, data.size())) {
    site.fail(eh.e_shoff + strndx * eh.e_shentsize, "section " + std::to_string(strndx) + " (the section names) lies past the end of the file");
  }
  const uint64_t names_offset = named ? raw[strndx].sh_offset : 0;
  const Bytes name_table = named ? data.subspan(names_offset, raw[strndx].sh_size) : Bytes{};
  sections_.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const auto& sh = raw[i];
    const std::string_view name = named ? string_at(name_table, names_offset, sh.sh_name, site) : std::string_view{};
    const bool past_end = !fits(sh.sh_offset, sh.sh_size, data.size());
    sections_.push_back({name, sh.sh_type, past_end ? eh.e_shoff + i * eh.e_shentsize : sh.sh_offset, past_end ? 0 : sh.sh_size,
                         sh.sh_link, sh.sh_entsize, past_end});
  }
}

Bytes ElfImage::contents(const ElfSection& s, const ErrorSite& site) const {
  // A section past the end keeps its header's offset in `offset`, for the message.
  if (s.past_end) site.fail(s.offset, "section " + std::string(s.name) + " lies past the end of the file");
  return data_.subspan(s.offset, s.size);
}

std::vector<std::string> needed_libraries(const ElfImage& elf, const ErrorSite& site) {
  std::vector<std::string> out;
  const auto& sections = elf.sections();
  for (const auto& s : sections) {
    if (s.type != SHT_DYNAMIC || (s.size == 0 && !s.past_end)) continue;
    if (s.link >= sections.size()) site.fail(s.offset, "dynamic section links to string table " + std::to_string(s.link) + ", out of range");
    const ElfSection& strtab = sections[s.link];
    const Bytes strings = elf.contents(strtab, site);
    const Bytes dyn = elf.contents(s, site);
    for (uint64_t at = 0; at + sizeof(Elf64_Dyn) <= dyn.size(); at += sizeof(Elf64_Dyn)) {
      const auto d = load<Elf64_Dyn>(dyn, at);
      if (d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_NEEDED) out.emplace_back(string_at(strings, strtab.offset, d.d_un.d_val, site));
    }
  }
  return out;
}

}  // namespace archbench::binary::detail

namespace archbench::binary {

bool elf_names_device_code(int fd, uint64_t file_size) {
  auto read_at = [&](void* into, size_t n, uint64_t at) {
    return detail::fits(at, n, file_size) && ::pread(fd, into, n, static_cast<off_t>(at)) == static_cast<ssize_t>(n);
  };
  Elf64_Ehdr eh{};
  if (!read_at(&eh, sizeof eh, 0) || eh.e_ident[EI_CLASS] != ELFCLASS64) return true;
  if (eh.e_machine == detail::kEmCuda) return true;
  if (eh.e_shoff == 0 || eh.e_shnum == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum) return true;
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  if (!read_at(sh.data(), sh.size() * sizeof(Elf64_Shdr), eh.e_shoff)) return true;
  const auto& names = sh[eh.e_shstrndx];
  if (names.sh_size > (uint64_t{16} << 20)) return true;
  std::string table(names.sh_size, '\0');
  if (!read_at(table.data(), table.size(), names.sh_offset)) return true;
  for (const auto& s : sh) {
    if (s.sh_name >= table.size()) return true;
    const std::string_view name(table.c_str() + s.sh_name);
    if (name == ".nv_fatbin" || name == "__nv_relfatbin") return true;
  }
  return false;
}

}  // namespace archbench::binary
