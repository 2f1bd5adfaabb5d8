// Malformed input: every case ends in a BinaryError that names the file, never a crash, a hang or
// an out-of-bounds read. Hostile files are real fixtures with fields patched.
#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "harness/binary/binary_file.hpp"
#include "suites/unit/binary_fixtures.hpp"

namespace archbench {
namespace {

using binary::BinaryError;
using binary::BinaryFile;

std::string scratch(const std::string& name) { return (test::BinaryFixtures::instance().dir() / name).string(); }

template <typename T>
void patch(std::vector<char>& bytes, uint64_t offset, T value) {
  ASSERT_LE(offset + sizeof(T), bytes.size());
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

template <typename T>
T peek(const std::vector<char>& bytes, uint64_t offset) {
  T v{};
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

// Opens, lists kernels and decodes every payload: the whole surface a caller can reach.
void read_everything(const std::string& path) {
  const auto f = BinaryFile::open(path);
  (void)f.kernels();
  for (const auto& e : f.entries()) (void)f.payload(e);
}

// Expects a BinaryError naming `path` (and `fragment` in the message when given); returns it.
BinaryError expect_binary_error(const std::string& path, const std::string& fragment = {}) {
  try {
    read_everything(path);
  } catch (const BinaryError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    if (!fragment.empty()) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    return e;
  }
  ADD_FAILURE() << "no BinaryError for " << path;
  return BinaryError(path, 0, "none");
}

BinaryError expect_patched_error(const std::vector<char>& bytes, const std::string& name, const std::string& fragment = {}) {
  const auto path = scratch(name);
  test::write_bytes(path, bytes);
  return expect_binary_error(path, fragment);
}

// File offsets of the parts of a fixture that the cases below patch.
struct Layout {
  std::vector<char> bytes;
  Elf64_Ehdr eh{};
  uint64_t fatbin_shdr = 0;  // offset of the .nv_fatbin / __nv_relfatbin section header
  uint64_t container = 0;    // offset of the first container header
  std::vector<binary::FatbinEntry> entries;
};

Layout layout_of(const std::string& fixture) {
  Layout l;
  const std::string path = test::binary_fixture(fixture);
  l.bytes = test::read_bytes(path);
  const auto f = BinaryFile::open(path);
  l.entries = f.entries();
  l.container = l.entries.at(0).offset - 16;
  l.eh = peek<Elf64_Ehdr>(l.bytes, 0);
  for (uint64_t i = 0; i < l.eh.e_shnum; ++i) {
    const uint64_t at = l.eh.e_shoff + i * l.eh.e_shentsize;
    if (peek<Elf64_Shdr>(l.bytes, at).sh_offset == l.container) l.fatbin_shdr = at;
  }
  EXPECT_NE(l.fatbin_shdr, 0U);
  return l;
}

TEST(BinaryHostile, EmptyFile) {
  const auto path = scratch("empty");
  test::write_bytes(path, {});
  const auto e = expect_binary_error(path, "not an ELF file, PE image or fatbin");
  EXPECT_EQ(e.offset(), 0U);
}

TEST(BinaryHostile, NotElf) {
  const std::string text = "#!/bin/sh\necho not a binary\n";
  expect_patched_error({text.begin(), text.end()}, "script", "not an ELF file, PE image or fatbin");
}

TEST(BinaryHostile, WrongMagics) {
  auto l = layout_of("mode_none");
  auto elf = l.bytes;
  elf[3] = 'G';  // \x7fELG
  expect_patched_error(elf, "bad_elf_magic", "not an ELF file, PE image or fatbin");
  auto container = l.bytes;
  patch<uint32_t>(container, l.container, 0xBA55ED51);
  const auto e = expect_patched_error(container, "bad_container_magic", "magic");
  EXPECT_EQ(e.offset(), l.container);
  auto cls = l.bytes;
  cls[EI_CLASS] = ELFCLASS32;
  expect_patched_error(cls, "elf32", "64-bit");
  auto endian = l.bytes;
  endian[EI_DATA] = ELFDATA2MSB;
  expect_patched_error(endian, "big_endian", "little-endian");
}

// Every prefix of a real object is malformed: the section headers sit at its end.
TEST(BinaryHostile, TruncatedObjectAtEveryPoint) {
  const auto l = layout_of("mode_none");
  const auto path = scratch("truncated.o");
  for (size_t n = 0; n < l.bytes.size(); n += n < 256 ? 1 : 61) {
    SCOPED_TRACE(n);
    test::write_bytes(path, {l.bytes.begin(), l.bytes.begin() + static_cast<std::ptrdiff_t>(n)});
    expect_binary_error(path);
  }
}

// Prefixes of the raw fatbin: a container that claims more than the file holds.
TEST(BinaryHostile, TruncatedFatbinAtEveryPoint) {
  const auto l = layout_of("mode_size");
  const auto fat_size = peek<uint64_t>(l.bytes, l.container + 8);
  const auto begin = l.bytes.begin() + static_cast<std::ptrdiff_t>(l.container);
  const auto path = scratch("truncated.fatbin");
  for (uint64_t n = 16; n < 16 + fat_size; n += 7) {
    SCOPED_TRACE(n);
    test::write_bytes(path, {begin, begin + static_cast<std::ptrdiff_t>(n)});
    expect_binary_error(path);
  }
}

TEST(BinaryHostile, SectionHeadersOutOfBounds) {
  const auto l = layout_of("mode_none");
  auto shoff = l.bytes;
  patch<uint64_t>(shoff, offsetof(Elf64_Ehdr, e_shoff), l.bytes.size() + 8);
  expect_patched_error(shoff, "shoff_past_end", "section header table");
  patch<uint64_t>(shoff, offsetof(Elf64_Ehdr, e_shoff), uint64_t{1} << 63);
  expect_patched_error(shoff, "shoff_huge", "section header table");
  auto shnum = l.bytes;
  patch<uint16_t>(shnum, offsetof(Elf64_Ehdr, e_shnum), 0xfff0);
  expect_patched_error(shnum, "shnum_huge", "section header table");
  auto shentsize = l.bytes;
  patch<uint16_t>(shentsize, offsetof(Elf64_Ehdr, e_shentsize), 8);
  expect_patched_error(shentsize, "shentsize_small", "section header size");
  auto strndx = l.bytes;
  patch<uint16_t>(strndx, offsetof(Elf64_Ehdr, e_shstrndx), l.eh.e_shnum);
  expect_patched_error(strndx, "shstrndx_out_of_range", "name table");
}

TEST(BinaryHostile, FatbinSectionOutOfBounds) {
  const auto l = layout_of("mode_none");
  auto offset = l.bytes;
  patch<uint64_t>(offset, l.fatbin_shdr + offsetof(Elf64_Shdr, sh_offset), l.bytes.size() + 16);
  expect_patched_error(offset, "section_offset_past_end", "past the end of the file");
  auto size = l.bytes;
  patch<uint64_t>(size, l.fatbin_shdr + offsetof(Elf64_Shdr, sh_size), ~uint64_t{0});  // offset + size wraps
  expect_patched_error(size, "section_size_wraps", "past the end of the file");
  auto name = l.bytes;
  patch<uint32_t>(name, l.fatbin_shdr + offsetof(Elf64_Shdr, sh_name), 0x7fffffff);
  expect_patched_error(name, "section_name_out_of_range", "string offset");
}

TEST(BinaryHostile, ContainerSizes) {
  const auto l = layout_of("mode_none");
  for (const uint64_t fat_size : {uint64_t{1} << 63, ~uint64_t{0}, uint64_t{1} << 20}) {
    auto b = l.bytes;
    patch<uint64_t>(b, l.container + 8, fat_size);
    const auto e = expect_patched_error(b, "fat_size", "container size");
    EXPECT_EQ(e.offset(), l.container + 8);
  }
  auto hs = l.bytes;
  patch<uint16_t>(hs, l.container + 6, 0);
  expect_patched_error(hs, "container_header_size", "container header size");
}

TEST(BinaryHostile, EntrySizes) {
  const auto l = layout_of("mode_none");
  const uint64_t entry = l.entries.at(0).offset;
  // header_size 0 and padded size 0 would never advance.
  auto zero = l.bytes;
  patch<uint32_t>(zero, entry + 4, 0);
  patch<uint64_t>(zero, entry + 8, 0);
  auto e = expect_patched_error(zero, "entry_zero", "entry header size");
  EXPECT_EQ(e.offset(), entry + 4);
  auto big_header = l.bytes;
  patch<uint32_t>(big_header, entry + 4, 0xffffffff);
  expect_patched_error(big_header, "entry_header_huge", "entry header size");
  for (const uint64_t padded : {uint64_t{1} << 63, ~uint64_t{0}, uint64_t{1} << 20}) {
    auto b = l.bytes;
    patch<uint64_t>(b, entry + 8, padded);
    e = expect_patched_error(b, "entry_padded", "entry size");
    EXPECT_EQ(e.offset(), entry + 8);
  }
}

TEST(BinaryHostile, CompressedSizeBeyondEntry) {
  const auto l = layout_of("mode_size");
  auto b = l.bytes;
  patch<uint32_t>(b, l.entries.at(0).offset + 16, 0xffffff00);
  expect_patched_error(b, "compressed_size", "compressed size");
}

// A 2 GiB claim is refused before anything is allocated or decoded.
TEST(BinaryHostile, DecompressionBomb) {
  const auto l = layout_of("mode_size");
  for (size_t i = 0; i < l.entries.size(); ++i) {
    ASSERT_EQ(l.entries[i].compression, binary::Compression::Zstd);
    auto b = l.bytes;
    patch<uint64_t>(b, l.entries[i].offset + 56, uint64_t{2} << 30);
    const auto path = scratch("bomb.o");
    test::write_bytes(path, b);
    const auto f = BinaryFile::open(path);  // headers only: still readable
    EXPECT_EQ(f.entries()[i].uncompressed_size, uint64_t{2} << 30);
    EXPECT_THROW((void)f.payload(f.entries()[i]), BinaryError);
    expect_binary_error(path, "1 GiB");
  }
}

TEST(BinaryHostile, DeclaredSizeDiffersFromData) {
  const auto zstd = layout_of("mode_size");
  for (const int delta : {-1, 1}) {
    auto b = zstd.bytes;
    const uint64_t at = zstd.entries.at(1).offset + 56;
    patch<uint64_t>(b, at, peek<uint64_t>(b, at) + static_cast<uint64_t>(delta));
    expect_patched_error(b, "zstd_size", "zstd");
  }
  const auto lz4 = layout_of("mode_speed");
  ASSERT_EQ(lz4.entries.at(1).compression, binary::Compression::Lz4);
  for (const uint64_t declared : {uint64_t{10}, uint64_t{1} << 29}) {
    auto b = lz4.bytes;
    patch<uint64_t>(b, lz4.entries[1].offset + 56, declared);
    expect_patched_error(b, "lz4_size", "LZ4");
  }
  auto corrupt = lz4.bytes;  // a literal run longer than the block
  corrupt[lz4.entries[1].payload_offset] = static_cast<char>(0xff);
  patch<uint32_t>(corrupt, lz4.entries[1].payload_offset + 1, 0xffffffff);
  expect_patched_error(corrupt, "lz4_corrupt", "LZ4");
}

// The cubin inside an uncompressed entry: its errors point into the file.
TEST(BinaryHostile, CubinSectionHeaders) {
  const auto l = layout_of("mode_none");
  const uint64_t cubin = l.entries.at(0).payload_offset;
  auto b = l.bytes;
  patch<uint64_t>(b, cubin + offsetof(Elf64_Ehdr, e_shoff), uint64_t{1} << 40);
  const auto e = expect_patched_error(b, "cubin_shoff", "section header table");
  EXPECT_EQ(e.offset(), cubin + offsetof(Elf64_Ehdr, e_shoff));
}

TEST(BinaryHostile, CubinSymbolTable) {
  const auto l = layout_of("mode_none");
  const uint64_t cubin = l.entries.at(0).payload_offset;
  const auto eh = peek<Elf64_Ehdr>(l.bytes, cubin);
  uint64_t symtab = 0;
  for (uint64_t i = 0; i < eh.e_shnum; ++i) {
    const uint64_t at = cubin + eh.e_shoff + i * eh.e_shentsize;
    if (peek<Elf64_Shdr>(l.bytes, at).sh_type == SHT_SYMTAB) symtab = at;
  }
  ASSERT_NE(symtab, 0U);
  auto link = l.bytes;
  patch<uint32_t>(link, symtab + offsetof(Elf64_Shdr, sh_link), 0xffff);
  expect_patched_error(link, "symtab_link", "string table");
  auto entsize = l.bytes;
  patch<uint64_t>(entsize, symtab + offsetof(Elf64_Shdr, sh_entsize), 0);
  expect_patched_error(entsize, "symtab_entsize", "entry size");
  auto size = l.bytes;
  patch<uint64_t>(size, symtab + offsetof(Elf64_Shdr, sh_size), uint64_t{1} << 32);
  expect_patched_error(size, "symtab_size", "past the end");
}

// Random byte damage to the headers: any outcome but a crash, a hang or another exception type.
TEST(BinaryHostile, RandomDamageNeverCrashes) {
  for (const char* fixture : {"mode_none", "mode_size", "mode_speed", "rdc"}) {
    const auto l = layout_of(fixture);
    std::mt19937_64 rng(42);
    const auto path = scratch("damaged.o");
    int errors = 0;
    for (int round = 0; round < 150; ++round) {
      auto b = l.bytes;
      for (int k = 0; k < 4; ++k) {
        // Aim at the fatbin region most of the time, anywhere otherwise.
        const uint64_t lo = rng() % 4 == 0 ? 0 : l.container;
        const uint64_t at = lo + rng() % (b.size() - lo);
        b[at] = static_cast<char>(rng());
      }
      test::write_bytes(path, b);
      try {
        read_everything(path);
      } catch (const BinaryError& e) {
        ++errors;
        EXPECT_EQ(e.path(), path);
      }
    }
    EXPECT_GT(errors, 0) << fixture;
  }
}

}  // namespace
}  // namespace archbench
