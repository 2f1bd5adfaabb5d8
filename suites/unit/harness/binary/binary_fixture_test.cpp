// The reader against nvcc's own output: for each target set, the exact images (kind, arch, suffix,
// PTX ISA, compression) and the kernels each image defines.
#include <elf.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "harness/binary/binary_file.hpp"
#include "suites/unit/binary_fixtures.hpp"

namespace archbench {
namespace {

using binary::BinaryFile;
using binary::Compression;

struct ExpectedImage {
  std::string target;  // "sm_90a", "compute_80"
  Compression compression;
};

struct FixtureCase {
  std::string fixture;
  std::vector<ExpectedImage> images;
  bool relocatable = false;
};

arch::CodeTarget expected_target(const std::string& name) {
  auto t = arch::parse_target_name(name);
  EXPECT_TRUE(t.has_value()) << name;
  if (t && t->kind == arch::ImageKind::Ptx) t->ptx_isa = test::BinaryFixtures::instance().ptx_isa();
  return t.value_or(arch::CodeTarget{});
}

std::string as_text(const std::vector<std::byte>& b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// The payload is what the header says: a cubin for that arch, or PTX text for that target and ISA.
void expect_payload_matches(const BinaryFile& f, const binary::FatbinEntry& e) {
  const auto bytes = f.payload(e);
  ASSERT_EQ(bytes.size(), e.uncompressed_size);
  if (e.target.kind == arch::ImageKind::Sass) {
    ASSERT_GE(bytes.size(), sizeof(Elf64_Ehdr));
    Elf64_Ehdr eh;
    std::memcpy(&eh, bytes.data(), sizeof eh);
    EXPECT_EQ(std::memcmp(eh.e_ident, ELFMAG, SELFMAG), 0);
    EXPECT_EQ(eh.e_machine, 190);
    EXPECT_EQ(static_cast<int>((eh.e_flags >> 8) & 0xff), e.target.arch);  // ABI 8
  } else {
    const auto text = as_text(bytes);
    EXPECT_NE(text.find(".version " + e.target.ptx_isa.str() + "\n"), std::string::npos) << e.target.ptx_isa.str();
    const auto sm = "sm_" + std::to_string(e.target.arch) + std::string(arch::suffix_letter(e.target.suffix));
    EXPECT_NE(text.find(".target " + sm + "\n"), std::string::npos) << sm;
  }
}

class BinaryFixture : public ::testing::TestWithParam<FixtureCase> {};

TEST_P(BinaryFixture, ImagesAndKernels) {
  const auto& c = GetParam();
  const auto f = BinaryFile::open(test::binary_fixture(c.fixture));
  EXPECT_EQ(f.container_count(), 1);
  std::vector<arch::CodeTarget> want;
  for (const auto& i : c.images) want.push_back(expected_target(i.target));

  ASSERT_EQ(f.entries().size(), c.images.size());
  for (size_t i = 0; i < c.images.size(); ++i) {
    const auto& e = f.entries()[i];
    SCOPED_TRACE(c.images[i].target);
    EXPECT_TRUE(e.is_image);
    EXPECT_EQ(e.raw_kind, e.target.kind == arch::ImageKind::Ptx ? 1 : 2);
    EXPECT_EQ(e.target, want[i]) << e.target.name() << " ISA " << e.target.ptx_isa.str();
    EXPECT_EQ(binary::compression_name(e.compression), binary::compression_name(c.images[i].compression));
    EXPECT_EQ(e.relocatable, c.relocatable);
    EXPECT_EQ(e.container, 0);
    if (e.compression == Compression::None) {
      EXPECT_EQ(e.payload_size, e.uncompressed_size);
    }
    expect_payload_matches(f, e);
  }

  const auto kernels = f.kernels();
  ASSERT_EQ(kernels.size(), 2U);
  EXPECT_EQ(kernels[0].mangled, "_Z5scaleIfEvPT_");
  EXPECT_EQ(kernels[0].demangled, "void scale<float>(float*)");
  EXPECT_EQ(kernels[0].images, want);
  EXPECT_EQ(kernels[1].mangled, "plain_c");
  EXPECT_EQ(kernels[1].demangled, "plain_c");
  EXPECT_EQ(kernels[1].images, want);
}

INSTANTIATE_TEST_SUITE_P(
    BinaryNvcc, BinaryFixture,
    ::testing::Values(
        FixtureCase{"sm80", {{"sm_80", Compression::None}}},
        FixtureCase{"ptx80", {{"compute_80", Compression::Zstd}}},
        FixtureCase{"sm80_ptx90", {{"sm_80", Compression::None}, {"compute_90", Compression::Zstd}}},
        FixtureCase{"sm90a", {{"sm_90a", Compression::None}}},
        FixtureCase{"sm100f", {{"sm_100f", Compression::None}}},
        FixtureCase{"sm120a_ptx120", {{"sm_120a", Compression::None}, {"compute_120", Compression::Zstd}}},
        // -rdc: everything in __nv_relfatbin, ELF compressed too (docs/reference/compat.md, "Fatbin and cubin layout").
        FixtureCase{"rdc", {{"sm_80", Compression::Zstd}, {"compute_80", Compression::Zstd}}, true},
        FixtureCase{"mode_default", {{"sm_80", Compression::None}, {"compute_80", Compression::Zstd}}},
        FixtureCase{"mode_size", {{"sm_80", Compression::Zstd}, {"compute_80", Compression::Zstd}}},
        FixtureCase{"mode_speed", {{"sm_80", Compression::None}, {"compute_80", Compression::Lz4}}},
        FixtureCase{"mode_none", {{"sm_80", Compression::None}, {"compute_80", Compression::None}}}),
    [](const ::testing::TestParamInfo<FixtureCase>& info) { return info.param.fixture; });

// CUDA 13 links even a one-file executable: a device-link container of kernel-less ELFs comes first.
TEST(BinaryFixtureExe, LinkedExecutableKeepsKernelsPerImage) {
  const auto f = BinaryFile::open(test::binary_fixture("exe"));
  EXPECT_GE(f.container_count(), 2);
  std::vector<arch::CodeTarget> last;  // the TU's own container
  for (const auto& e : f.entries()) {
    EXPECT_FALSE(e.relocatable);
    if (e.container == f.container_count() - 1) last.push_back(e.target);
  }
  const std::vector<arch::CodeTarget> want = {expected_target("sm_80"), expected_target("compute_80")};
  EXPECT_EQ(last, want);
  const auto kernels = f.kernels();
  ASSERT_EQ(kernels.size(), 2U);
  EXPECT_EQ(kernels[0].mangled, "_Z5scaleIfEvPT_");
  EXPECT_EQ(kernels[0].images, want);
  EXPECT_EQ(kernels[1].mangled, "plain_c");
  EXPECT_EQ(kernels[1].images, want);
}

// The .nv_fatbin bytes on their own, as `fatbinary` writes them.
TEST(BinaryRaw, FatbinFileReadsLikeItsSection) {
  const std::string obj = test::binary_fixture("mode_none");
  const auto f = BinaryFile::open(obj);
  ASSERT_EQ(f.entries().size(), 2U);
  const uint64_t container = f.entries()[0].offset - 16;
  const auto bytes = test::read_bytes(obj);
  uint64_t fat_size = 0;
  std::memcpy(&fat_size, bytes.data() + container + 8, 8);
  const auto raw = (test::BinaryFixtures::instance().dir() / "raw.fatbin").string();
  test::write_bytes(raw, {bytes.begin() + static_cast<std::ptrdiff_t>(container),
                          bytes.begin() + static_cast<std::ptrdiff_t>(container + 16 + fat_size)});
  const auto r = BinaryFile::open(raw);
  ASSERT_EQ(r.entries().size(), 2U);
  EXPECT_EQ(r.container_count(), 1);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.entries()[i].target, f.entries()[i].target);
    EXPECT_EQ(r.entries()[i].offset, f.entries()[i].offset - container);
    EXPECT_EQ(r.payload(r.entries()[i]), f.payload(f.entries()[i]));
  }
  EXPECT_EQ(r.kernels().size(), 2U);
}

// Containers back to back, some after 8 bytes of padding; enough entries for kernels() to go parallel.
TEST(BinaryRaw, ManyContainersInOneSection) {
  const std::string obj = test::binary_fixture("mode_size");
  const auto f = BinaryFile::open(obj);
  const uint64_t container = f.entries().at(0).offset - 16;
  const auto bytes = test::read_bytes(obj);
  uint64_t fat_size = 0;
  std::memcpy(&fat_size, bytes.data() + container + 8, 8);
  const auto first = bytes.begin() + static_cast<std::ptrdiff_t>(container);
  std::vector<char> many;
  constexpr int kCopies = 50;
  for (int i = 0; i < kCopies; ++i) {
    many.insert(many.end(), first, first + static_cast<std::ptrdiff_t>(16 + fat_size));
    if (i % 3 == 0) many.insert(many.end(), 8, '\0');
  }
  const auto raw = (test::BinaryFixtures::instance().dir() / "many.fatbin").string();
  test::write_bytes(raw, many);
  const auto r = BinaryFile::open(raw);
  EXPECT_EQ(r.container_count(), kCopies);
  ASSERT_EQ(r.entries().size(), 2U * kCopies);
  std::vector<arch::CodeTarget> want;
  for (int i = 0; i < kCopies; ++i) {
    EXPECT_EQ(r.entries()[2 * i].container, i);
    want.push_back(f.entries()[0].target);
    want.push_back(f.entries()[1].target);
  }
  const auto kernels = r.kernels();
  ASSERT_EQ(kernels.size(), 2U);
  EXPECT_EQ(kernels[0].images, want);
  EXPECT_EQ(kernels[1].images, want);
}

// A cubin on its own: arch from e_flags; `a` is not recorded there (docs/reference/compat.md, "Suffixes `a`
// and `f`"), so no suffix.
TEST(BinaryRaw, CubinFileIsOneSassImage) {
  for (const auto& [fixture, arch] : {std::pair{"sm80", 80}, std::pair{"sm90a", 90}, std::pair{"sm100f", 100}}) {
    SCOPED_TRACE(fixture);
    const auto f = BinaryFile::open(test::binary_fixture(fixture));
    const auto cubin = f.payload(f.entries().at(0));
    const auto raw = (test::BinaryFixtures::instance().dir() / (std::string(fixture) + ".cubin")).string();
    test::write_bytes(raw, {reinterpret_cast<const char*>(cubin.data()), reinterpret_cast<const char*>(cubin.data()) + cubin.size()});
    const auto r = BinaryFile::open(raw);
    ASSERT_EQ(r.entries().size(), 1U);
    const auto& e = r.entries()[0];
    EXPECT_EQ(e.target.kind, arch::ImageKind::Sass);
    EXPECT_EQ(e.target.arch, arch);
    EXPECT_EQ(e.target.suffix, arch::Suffix::None);
    EXPECT_EQ(e.payload_size, cubin.size());
    EXPECT_EQ(r.container_count(), 0);
    const auto kernels = r.kernels();
    ASSERT_EQ(kernels.size(), 2U);
    EXPECT_EQ(kernels[1].mangled, "plain_c");
  }
}

// A host ELF without fatbin sections has no device code, which is not an error.
TEST(BinaryRaw, HostElfWithoutFatbinHasNoEntries) {
  auto bytes = test::read_bytes(test::binary_fixture("sm80"));
  // Rename the section (same length, every occurrence) so that the reader no longer recognises it.
  const std::string name = ".nv_fatbin";
  int renamed = 0;
  for (auto at = bytes.begin(); (at = std::search(at, bytes.end(), name.begin(), name.end())) != bytes.end(); ++renamed) {
    at += static_cast<std::ptrdiff_t>(name.size());
    *(at - 1) = 'X';
  }
  ASSERT_GT(renamed, 0);
  const auto path = (test::BinaryFixtures::instance().dir() / "host_only.o").string();
  test::write_bytes(path, bytes);
  const auto f = BinaryFile::open(path);
  EXPECT_TRUE(f.entries().empty());
  EXPECT_EQ(f.container_count(), 0);
  EXPECT_TRUE(f.kernels().empty());
}

TEST(BinaryRaw, MissingFileIsASystemError) {
  EXPECT_THROW((void)BinaryFile::open("/nonexistent/archbench.o"), std::system_error);
}

TEST(BinaryRaw, MovedFromFileKeepsWorking) {
  auto f = BinaryFile::open(test::binary_fixture("sm80"));
  BinaryFile g = std::move(f);
  EXPECT_EQ(g.entries().size(), 1U);
  EXPECT_EQ(g.kernels().size(), 2U);
}

}  // namespace
}  // namespace archbench
