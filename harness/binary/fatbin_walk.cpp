#include "harness/binary/fatbin_walk.hpp"

namespace archbench::binary::detail {

namespace {

// The 16-byte container header and the 64-byte entry header, in file layout.
struct ContainerHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t header_size;
  uint64_t fat_size;
};
static_assert(sizeof(ContainerHeader) == 16);

struct EntryHeader {
  uint16_t kind;
  uint16_t version;
  uint32_t header_size;
  uint64_t padded_size;
  uint32_t compressed_size;
  uint32_t unknown;
  uint16_t minor;
  uint16_t major;
  uint32_t arch;
  uint32_t name_offset;
  uint32_t name_length;
  uint64_t flags;
  uint64_t zero;
  uint64_t uncompressed_size;
};
static_assert(sizeof(EntryHeader) == 64);

constexpr uint16_t kKindPtx = 1;
constexpr uint16_t kKindElf = 2;

FatbinEntry decode_entry(const EntryHeader& h, uint64_t at, uint64_t payload_room, int container, bool relocatable,
                         const ErrorSite& site) {
  FatbinEntry e;
  e.raw_kind = h.kind;
  e.is_image = h.kind == kKindPtx || h.kind == kKindElf;
  e.flags = h.flags;
  e.target.kind = h.kind == kKindPtx ? arch::ImageKind::Ptx : arch::ImageKind::Sass;
  e.target.arch = static_cast<int>(h.arch);
  e.target.virtual_arch = e.target.arch;
  if ((h.flags & kFlagArchSpecific) != 0 && (h.flags & kFlagFamilySpecific) != 0) {
    site.fail(at + offsetof(EntryHeader, flags), "entry is flagged both arch-specific and family-specific");
  }
  if ((h.flags & kFlagArchSpecific) != 0) e.target.suffix = arch::Suffix::ArchSpecific;
  if ((h.flags & kFlagFamilySpecific) != 0) e.target.suffix = arch::Suffix::FamilySpecific;
  if (h.kind == kKindPtx) e.target.ptx_isa = {h.major, h.minor};
  e.container = container;
  e.relocatable = relocatable;
  e.offset = at;
  e.payload_offset = at + h.header_size;

  const uint64_t compressed = h.flags & (kFlagLz4 | kFlagZstd);
  if (compressed == (kFlagLz4 | kFlagZstd)) site.fail(at + offsetof(EntryHeader, flags), "entry is flagged both LZ4 and ZSTD");
  e.compression = compressed == kFlagZstd ? Compression::Zstd : compressed == kFlagLz4 ? Compression::Lz4 : Compression::None;
  e.payload_size = h.padded_size;
  e.uncompressed_size = h.padded_size;
  if (e.compression != Compression::None) {
    if (h.compressed_size != 0) e.payload_size = h.compressed_size;
    e.uncompressed_size = h.uncompressed_size;
    if (e.payload_size > payload_room) {
      site.fail(at + offsetof(EntryHeader, compressed_size), "compressed size " + hex(e.payload_size) + " exceeds the entry's padded size " + hex(payload_room));
    }
  }
  return e;
}

// Entries of the container at `at`; returns the offset just past it.
uint64_t walk_container(Bytes file, uint64_t at, uint64_t section_end, bool relocatable, int container,
                        std::vector<FatbinEntry>& out, const ErrorSite& site) {
  const auto ch = load<ContainerHeader>(file, at);
  if (ch.header_size < sizeof(ContainerHeader) || ch.header_size > section_end - at) {
    site.fail(at + offsetof(ContainerHeader, header_size), "bad container header size " + std::to_string(ch.header_size));
  }
  // fat_size counts the bytes after the header (docs/reference/compat.md, "Fatbin and cubin layout").
  const uint64_t begin = at + ch.header_size;
  const auto end = checked_add(begin, ch.fat_size);
  if (!end || *end > section_end) {
    site.fail(at + offsetof(ContainerHeader, fat_size), "container size " + hex(ch.fat_size) + " runs past the end of its section at " + hex(section_end));
  }
  uint64_t e = begin;
  while (e < *end) {
    if (*end - e < sizeof(EntryHeader)) site.fail(e, "truncated fatbin entry header");
    const auto h = load<EntryHeader>(file, e);
    // A header of at least 64 bytes also guarantees that every entry advances.
    if (h.header_size < sizeof(EntryHeader) || h.header_size > *end - e) {
      site.fail(e + offsetof(EntryHeader, header_size), "bad fatbin entry header size " + std::to_string(h.header_size));
    }
    const uint64_t room = *end - e - h.header_size;
    if (h.padded_size > room) {
      site.fail(e + offsetof(EntryHeader, padded_size), "entry size " + hex(h.padded_size) + " runs past the end of its container at " + hex(*end));
    }
    out.push_back(decode_entry(h, e, h.padded_size, container, relocatable, site));
    e += h.header_size + h.padded_size;
  }
  return *end;
}

}  // namespace

bool has_fatbin_magic(Bytes data) { return data.size() >= 4 && load<uint32_t>(data, 0) == kFatbinMagic; }

void walk_fatbin_section(Bytes file, uint64_t offset, uint64_t size, bool relocatable, const std::string& path,
                         int& containers, std::vector<FatbinEntry>& out) {
  const ErrorSite site(path, 0);
  if (!fits(offset, size, file.size())) site.fail(offset, "fatbin section past the end of the file");
  const uint64_t end = offset + size;
  uint64_t at = offset;
  bool first = true;
  while (end - at >= sizeof(ContainerHeader)) {
    if (load<uint32_t>(file, at) != kFatbinMagic) {
      // The section must open with a container; after one, alignment padding may precede the next.
      if (first) site.fail(at, "no fatbin container magic (0xba55ed50) at the start of the fatbin data");
      at += 8 - (at - offset) % 8;
      continue;
    }
    first = false;
    at = walk_container(file, at, end, relocatable, containers++, out, site);
  }
}

}  // namespace archbench::binary::detail
