// `archbench inspect FILE... --fleet FILE --json FILE`, run as a user runs it, on three builds of
// docs/arch-lists-and-verdicts.md ("`a` and `f` targets"): FlashAttention-3's case (9.0a only), its portable twin
// (9.0a;8.0+PTX) and a family build (10.0f), for every device of the page's table.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "suites/unit/binary_fixtures.hpp"
#include "suites/unit/suffixed_builds_page.hpp"
#include "tools/archbench/exit_codes.hpp"

namespace archbench::cli {
namespace {

using nlohmann::json;

TEST(InspectFleet, SuffixedBuildsOnThePagesDevices) {
  auto& fixtures = test::BinaryFixtures::instance();
  const auto page = test::read_suffixed_builds_page();
  const std::vector<std::string> lists = {"9.0a", "9.0a;8.0+PTX", "10.0f"};
  const std::string driver = fixtures.nvcc_version().str();

  // The fleet file of docs/inspect.md: one entry per row of the page, on a driver as new as the fixtures' nvcc.
  json fleet{{"devices", json::array()}};
  for (const auto& d : page.devices) {
    fleet["devices"].push_back({{"label", "gpu-" + d.cc.str()}, {"cc", d.cc.str()}, {"driver", driver}});
  }
  const auto fleet_path = (fixtures.dir() / "suffixed_fleet.json").string();
  const auto json_path = (fixtures.dir() / "suffixed_inspect.json").string();
  std::ofstream(fleet_path) << fleet.dump();

  std::string command = test::shell_quote(ARCHBENCH_TEST_EXE) + " inspect";
  for (const auto& list : lists) command += " " + test::shell_quote(fixtures.for_arch_list(list));
  command += " --fleet " + test::shell_quote(fleet_path) + " --json " + test::shell_quote(json_path);
  const auto r = test::run_command(command);
  // Some device of the fleet gets no image from the 9.0a build: that is a failing inspection.
  EXPECT_EQ(r.status, kOperatorFailed) << r.output;
  EXPECT_NE(r.output.find("on gpu-12.0: 12.0 (Blackwell"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("sm_90a runs only on exactly 9.0"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("images used: ptx-jit from compute_80 x2"), std::string::npos) << r.output;

  std::ifstream in(json_path);
  ASSERT_TRUE(in) << "no --json output: " << r.output;
  const json report = json::parse(in);
  ASSERT_EQ(report.at("files").size(), lists.size());
  for (size_t f = 0; f < lists.size(); ++f) {
    SCOPED_TRACE(lists[f]);
    const json& file = report.at("files").at(f);
    ASSERT_EQ(file.at("devices").size(), page.devices.size());
    for (size_t i = 0; i < page.devices.size(); ++i) {
      const auto& d = page.devices[i];
      const std::string& want = page.label(lists[f], d);
      const json& jd = file.at("devices").at(i);
      SCOPED_TRACE(d.title);
      EXPECT_EQ(jd.at("label"), "gpu-" + d.cc.str());
      EXPECT_EQ(jd.at("runs"), want != "missing") << jd.dump();
      if (want != "missing") {
        EXPECT_EQ(jd.at("images_used"), (json{{want, 2}}));
      }
      for (const json& k : file.at("kernels")) {
        EXPECT_EQ(k.at("verdicts").at("gpu-" + d.cc.str()).at("label"), want) << k.at("mangled");
      }
    }
  }
}

}  // namespace
}  // namespace archbench::cli
