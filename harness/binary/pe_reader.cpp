#include "harness/binary/pe_reader.hpp"

#include <algorithm>

namespace archbench::binary::detail {
namespace {

constexpr uint64_t kLfanewAt = 0x3c;
constexpr uint64_t kCoffHeaderSize = 20;
constexpr uint64_t kSectionHeaderSize = 40;
constexpr uint16_t kPe32Magic = 0x10b;
constexpr uint16_t kPe32PlusMagic = 0x20b;
constexpr size_t kMaxImports = 4096;  // real DLLs import dozens; a bound keeps a hostile table cheap

std::optional<uint64_t> pe_header_offset(Bytes data) {
  if (data.size() < kLfanewAt + 4 || data[0] != std::byte{'M'} || data[1] != std::byte{'Z'}) return std::nullopt;
  const uint64_t at = load<uint32_t>(data, kLfanewAt);
  if (!fits(at, 4 + kCoffHeaderSize, data.size()) || load<uint32_t>(data, at) != 0x00004550) return std::nullopt;
  return at;
}

}  // namespace

bool has_pe_magic(Bytes data) { return pe_header_offset(data).has_value(); }

PeImage::PeImage(Bytes data, const ErrorSite& site) : data_(data) {
  const auto pe = pe_header_offset(data);
  if (!pe) site.fail(0, "not a PE image (no MZ header pointing at a PE signature)");
  const uint64_t coff = *pe + 4;
  machine_ = load<uint16_t>(data, coff);
  const uint16_t count = load<uint16_t>(data, coff + 2);
  const uint16_t optional_size = load<uint16_t>(data, coff + 16);
  const uint64_t optional_at = coff + kCoffHeaderSize;
  const auto table = checked_add(optional_at, optional_size);
  if (!table || !fits(*table, uint64_t{count} * kSectionHeaderSize, data.size())) {
    site.fail(coff + 2, "section table (" + std::to_string(count) + " sections) past the end of the file");
  }
  for (uint16_t i = 0; i < count; ++i) {
    const uint64_t at = *table + i * kSectionHeaderSize;
    PeSection s;
    const auto* raw_name = reinterpret_cast<const char*>(data.data() + at);
    s.name.assign(raw_name, std::find(raw_name, raw_name + 8, '\0'));
    s.virtual_size = load<uint32_t>(data, at + 8);
    s.virtual_address = load<uint32_t>(data, at + 12);
    s.raw_size = load<uint32_t>(data, at + 16);
    s.raw_offset = load<uint32_t>(data, at + 20);
    s.header_offset = at;
    s.past_end = s.raw_size != 0 && !fits(s.raw_offset, s.raw_size, data.size());
    sections_.push_back(std::move(s));
  }
  // The import directory: data directory 1, after the optional header's fixed part.
  if (optional_size >= 2 && fits(optional_at, optional_size, data.size())) {
    const uint16_t magic = load<uint16_t>(data, optional_at);
    const uint64_t dirs = magic == kPe32PlusMagic ? 112 : magic == kPe32Magic ? 96 : 0;
    const uint64_t count_at = dirs - 4;  // NumberOfRvaAndSizes precedes the directories
    if (dirs != 0 && optional_size >= dirs + 16 && load<uint32_t>(data, optional_at + count_at) >= 2) {
      const uint32_t rva = load<uint32_t>(data, optional_at + dirs + 8);
      const uint32_t size = load<uint32_t>(data, optional_at + dirs + 12);
      if (rva != 0 && size != 0) read_imports(rva, size, site);
    }
  }
}

std::optional<uint64_t> PeImage::file_offset_of(uint64_t rva) const {
  for (const auto& s : sections_) {
    const uint64_t span = std::max(s.virtual_size, s.raw_size);
    if (rva >= s.virtual_address && rva - s.virtual_address < span) {
      const uint64_t within = rva - s.virtual_address;
      if (within >= s.raw_size || s.past_end) return std::nullopt;  // zero-filled tail, or not in the file
      return s.raw_offset + within;
    }
  }
  return std::nullopt;
}

void PeImage::read_imports(uint32_t rva, uint32_t size, const ErrorSite& site) {
  const auto at = file_offset_of(rva);
  if (!at) site.fail(0, "import directory RVA " + hex(rva) + " lies in no section");
  constexpr uint64_t kDescriptorSize = 20;
  for (uint64_t d = *at; imports_.size() < kMaxImports; d += kDescriptorSize) {
    if (!fits(d, kDescriptorSize, data_.size())) site.fail(d, "import descriptor past the end of the file");
    if (d - *at >= size && size >= kDescriptorSize) break;  // the directory's declared end
    const uint32_t name_rva = load<uint32_t>(data_, d + 12);
    if (name_rva == 0) break;  // the all-zero terminator
    const auto name_at = file_offset_of(name_rva);
    if (!name_at || *name_at >= data_.size()) site.fail(d + 12, "imported DLL name RVA " + hex(name_rva) + " lies in no section");
    const auto* begin = reinterpret_cast<const char*>(data_.data() + *name_at);
    const size_t room = std::min<size_t>(data_.size() - *name_at, 512);
    const auto* end = std::find(begin, begin + room, '\0');
    if (end == begin + room) site.fail(*name_at, "unterminated imported DLL name");
    imports_.emplace_back(begin, end);
  }
}

}  // namespace archbench::binary::detail
