#include "harness/binary/kernel_names.hpp"

#include <cxxabi.h>
#include <elf.h>

#include <cstdlib>
#include <memory>

#include "harness/binary/elf_reader.hpp"

namespace archbench::binary::detail {

namespace {

constexpr unsigned char kStoCudaEntry = 0x10;  // st_other bit that marks a __global__ function

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

std::vector<std::string> cubin_kernel_names(Bytes cubin, const ErrorSite& site) {
  const ElfImage elf(cubin, site);
  const auto& sections = elf.sections();
  std::vector<std::string> names;
  for (const auto& s : sections) {
    if (s.type != SHT_SYMTAB) continue;
    if (s.entsize < sizeof(Elf64_Sym)) site.fail(s.offset, "symbol table entry size too small");
    if (s.link >= sections.size() || sections[s.link].type != SHT_STRTAB) site.fail(s.offset, "symbol table without a string table");
    const ElfSection& strtab = sections[s.link];
    const Bytes strings = elf.contents(strtab, site);
    const Bytes symbols = elf.contents(s, site);
    for (uint64_t at = 0; symbols.size() - at >= s.entsize; at += s.entsize) {
      const auto sym = load<Elf64_Sym>(symbols, at);
      // The entry bit decides, not the binding: -rdc cubins bind template kernels STB_WEAK, and
      // kernels with internal linkage (anonymous namespace, static) are STB_LOCAL.
      if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC) continue;
      if ((sym.st_other & kStoCudaEntry) == 0 || sym.st_shndx == SHN_UNDEF) continue;
      const auto name = string_at(strings, strtab.offset, sym.st_name, site);
      if (!name.empty()) names.emplace_back(name);  // nothing can launch a kernel without a name
    }
  }
  return names;
}

std::vector<std::string> ptx_kernel_names(std::string_view ptx) {
  ptx = ptx.substr(0, ptx.find('\0'));
  std::vector<std::string> names;
  constexpr std::string_view entry = ".entry";
  for (size_t at = ptx.find(entry); at != std::string_view::npos; at = ptx.find(entry, at + entry.size())) {
    // Only the linkage directives may precede `.entry` on its line (not `.extern`: a declaration).
    const size_t line = ptx.rfind('\n', at) + 1;  // npos + 1 == 0
    std::string_view before = ptx.substr(line, at - line);
    while (!before.empty() && is_blank(before.front())) before.remove_prefix(1);
    while (!before.empty() && is_blank(before.back())) before.remove_suffix(1);
    if (!before.empty() && before != ".visible" && before != ".weak") continue;
    size_t p = at + entry.size();
    if (p >= ptx.size() || !is_blank(ptx[p])) continue;  // `.entryfoo` is not the directive
    while (p < ptx.size() && is_blank(ptx[p])) ++p;
    const size_t begin = p;
    while (p < ptx.size() && ptx[p] != '(' && !is_blank(ptx[p]) && ptx[p] != '\n') ++p;
    if (p > begin) names.emplace_back(ptx.substr(begin, p - begin));
  }
  return names;
}

std::string demangle(const std::string& mangled) {
  // Without the prefix the demangler reads C names as types ("i" -> "int").
  if (!mangled.starts_with("_Z")) return mangled;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                                        &std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

}  // namespace archbench::binary::detail
