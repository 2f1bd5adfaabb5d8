#include "harness/binary/toolkit_note.hpp"

#include <string_view>

#include "harness/binary/elf_reader.hpp"

namespace archbench::binary::detail {

std::optional<arch::CudaVersion> cubin_toolkit_release(Bytes cubin, const ErrorSite& site) {
  const ElfImage elf(cubin, site);
  for (const auto& s : elf.sections()) {
    if (s.name != ".note.nv.tkinfo" || s.past_end) continue;
    const Bytes note = elf.contents(s, site);
    const std::string_view text(reinterpret_cast<const char*>(note.data()), note.size());
    constexpr std::string_view kRelease = "release ";
    const size_t at = text.find(kRelease);
    if (at == std::string_view::npos) return std::nullopt;
    // "13.0," : digits, a dot, digits.
    int major = 0, minor = 0;
    size_t p = at + kRelease.size();
    auto number = [&](int& into) {
      const size_t begin = p;
      while (p < text.size() && text[p] >= '0' && text[p] <= '9' && p - begin < 3) into = into * 10 + (text[p++] - '0');
      return p > begin;
    };
    if (!number(major) || p >= text.size() || text[p++] != '.' || !number(minor) || major == 0 || minor > 9) return std::nullopt;
    return arch::CudaVersion::from(major, minor);
  }
  return std::nullopt;
}

}  // namespace archbench::binary::detail
