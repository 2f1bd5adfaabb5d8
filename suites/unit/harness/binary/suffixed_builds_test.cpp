// The `a` and `f` builds of docs/arch-lists-and-verdicts.md ("`a` and `f` targets") for real: each arch list
// compiled by nvcc with the -gencode flags archbench's own build takes from it, read back by the reader of
// `archbench inspect` and judged by the compatibility engine for every device of the page's table. One test per
// column, so that ctest compiles the fixtures in parallel.
#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "harness/arch/arch_list.hpp"
#include "harness/arch/compat.hpp"
#include "harness/binary/binary_file.hpp"
#include "harness/binary/device_coverage.hpp"
#include "suites/unit/binary_fixtures.hpp"
#include "suites/unit/suffixed_builds_page.hpp"
#include "suites/unit/toolkit_fixture.hpp"

namespace archbench {
namespace {

using arch::ComputeCapability;

// Part of what the cause and the fix must say for one device.
struct Says {
  ComputeCapability cc;
  std::string cause;
  std::string fix;
};

struct SuffixedBuild {
  std::string list;
  std::vector<Says> says;
};
void PrintTo(const SuffixedBuild& b, std::ostream* os) { *os << b.list; }

// The page's columns, in its order.
const std::vector<SuffixedBuild>& suffixed_builds() {
  static const std::vector<SuffixedBuild> builds = {
      {"9.0a",
       {{{12, 0}, "sm_90a runs only on exactly 9.0; no PTX to JIT",
         "or add 9.0+PTX so the driver can JIT it (plain PTX: compute_90a would JIT only for exactly 9.0)"},
        {{8, 9}, "sm_90a runs only on exactly 9.0", "add 8.9 to ARCHBENCH_ARCH_LIST"}}},
      {"9.0a;8.0+PTX",
       {{{12, 0},
         "no SASS fits (sm_80 is another major (SASS runs only within its major); sm_90a runs only on exactly 9.0); "
         "the driver JIT-compiles compute_80 at first use",
         "add 12.0 to ARCHBENCH_ARCH_LIST for SASS"}}},
      {"10.0a",
       {{{10, 3}, "sm_100a runs only on exactly 10.0",
         "or build 10.0f instead of 10.0a (it runs on 10.0, 10.3) if the code needs no 10.0a-only feature"}}},
      {"10.0a+PTX",
       {{{10, 3}, "PTX compute_100a cannot target 10.3 (compute_100a JIT-compiles only for exactly 10.0)",
         "or build 10.0f instead of 10.0a"}}},
      {"10.0f",
       {{{11, 0}, "sm_100f runs only on its family (10.0, 10.3)",
         "or add 10.0+PTX so the driver can JIT it (plain PTX: compute_100f would JIT only for its family (10.0, "
         "10.3))"},
        {{12, 0}, "sm_100f runs only on its family (10.0, 10.3)", "add 12.0 to ARCHBENCH_ARCH_LIST"}}},
      {"12.0f", {{{10, 3}, "sm_120f runs only on its family (12.0, 12.1)", "add 10.3 to ARCHBENCH_ARCH_LIST"}}},
  };
  return builds;
}

// A recent driver: one as new as the nvcc that built the fixtures, so their PTX is never too new.
arch::DeviceFacts on(ComputeCapability cc) { return {cc, test::BinaryFixtures::instance().nvcc_version()}; }

arch::Verdict predict_on(const binary::KernelImages& k, ComputeCapability cc) {
  return arch::predict(arch::ImageSet{k.images, {0, 0}}, on(cc));
}

TEST(SuffixedBuildsPage, HasTheBuildsAndDevicesTheTestsBuild) {
  const auto page = test::read_suffixed_builds_page();
  std::vector<std::string> lists;
  for (const auto& b : suffixed_builds()) lists.push_back(b.list);
  EXPECT_EQ(page.builds, lists);
  std::vector<std::string> devices;
  for (const auto& d : page.devices) devices.push_back(d.cc.str());
  EXPECT_EQ(devices, (std::vector<std::string>{"8.0", "8.9", "9.0", "10.0", "10.3", "11.0", "12.0", "12.1"}));
}

// The page's example: FlashAttention-3's case, a 9.0a-only build on an RTX 5090.
TEST(SuffixedBuildsPage, TheExampleFindingIsTheEngines) {
  const auto file = binary::BinaryFile::open(test::BinaryFixtures::instance().for_arch_list("9.0a"));
  const auto kernels = file.kernels();
  ASSERT_FALSE(kernels.empty());
  const arch::Verdict v = predict_on(kernels[0], {12, 0});
  EXPECT_EQ(test::read_suffixed_builds_page().example,
            (std::vector<std::string>{v.label() + ": " + v.cause, "fix: " + v.fix}));
}

class SuffixedBuildColumn : public ::testing::TestWithParam<SuffixedBuild> {};

TEST_P(SuffixedBuildColumn, BuiltListedAndPredictedAsThePageSays) {
  const auto& b = GetParam();
  const auto file = binary::BinaryFile::open(test::BinaryFixtures::instance().for_arch_list(b.list));

  // Built and listed: the fatbin holds exactly the targets the list resolves to, suffixes included.
  std::set<std::string> built, listed;
  for (const auto& e : file.entries()) {
    if (e.is_image) built.insert(e.target.name());
  }
  for (const auto& t : arch::parse_arch_list(b.list, test::nvcc_13_0()).targets) listed.insert(t.name());
  EXPECT_EQ(built, listed);
  const auto kernels = file.kernels();
  ASSERT_EQ(kernels.size(), 2U);

  // Every cell of the column: each kernel's verdict, and whether the file as a whole runs there.
  const auto kind = binary::classify_binary("two_kernels.o", file.entries()).kind;
  const auto page = test::read_suffixed_builds_page();
  for (const auto& d : page.devices) {
    SCOPED_TRACE(d.title);
    const std::string& want = page.label(b.list, d);
    for (const auto& k : kernels) EXPECT_EQ(predict_on(k, d.cc).label(), want) << k.mangled;
    const ImageOutcome coverage = binary::judge(kind, binary::tally_kernels(kernels, on(d.cc)));
    EXPECT_EQ(binary::runs(coverage), want != "missing") << outcome_name(coverage);
  }

  // The cause names the rule that excludes the device; the fix says what would serve it.
  for (const auto& s : b.says) {
    const arch::Verdict v = predict_on(kernels[0], s.cc);
    EXPECT_NE(v.cause.find(s.cause), std::string::npos) << s.cc.str() << ": " << v.cause;
    EXPECT_NE(v.fix.find(s.fix), std::string::npos) << s.cc.str() << ": " << v.fix;
  }
}

INSTANTIATE_TEST_SUITE_P(NvccBuilt, SuffixedBuildColumn, ::testing::ValuesIn(suffixed_builds()),
                         [](const ::testing::TestParamInfo<SuffixedBuild>& info) {
                           std::string name;
                           for (const char c : info.param.list) {
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace archbench
