// The fleet matrix of `archbench merge` on the fleet fixtures: the real H200 run (reduced) with a
// synthesized baseline, and a second device SYNTHESIZED from the same run (an H100 running an
// sm_80-only build: own kernels missing). See suites/fixtures/fleet/make_fleet_fixtures.py.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "harness/report/fleet_markdown.hpp"
#include "harness/report/fleet_matrix.hpp"
#include "harness/report/html_fleet.hpp"

namespace archbench {
namespace {

const std::string kFleet = std::string(ARCHBENCH_TEST_FIXTURES) + "/fleet/";
const std::string kH200Key = "nvidia-h200-cc90-140g";

FleetMatrix fixture_matrix(bool with_baseline) {
  std::vector<StoredRun> runs{load_stored_run(kFleet + "results_h200.json"), load_stored_run(kFleet + "results_h100_sm80build.json")};
  std::map<std::string, FleetBaseline> baselines;
  if (with_baseline) {
    const std::string path = kFleet + "baselines/" + kH200Key + ".json";
    baselines[kH200Key] = FleetBaseline{path, load_baseline(path)};
  }
  return build_fleet_matrix(runs, baselines, Thresholds{});
}

TEST(FleetMatrix, TwoDevicesWithVerdictsAndChanges) {
  const FleetMatrix m = fixture_matrix(true);
  ASSERT_EQ(m.devices.size(), 2u);
  EXPECT_EQ(m.devices[0].key, kH200Key);
  EXPECT_EQ(m.devices[1].key, "nvidia-h100-80gb-hbm3-cc90-80g");
  EXPECT_EQ(m.rows.size(), 18u);
  // H200: everything runs and is correct; the baseline makes three operators slower.
  EXPECT_EQ(m.devices[0].failed, 0u);
  EXPECT_EQ(m.devices[0].regressions, 3u);
  EXPECT_FALSE(m.devices[0].baseline.empty());
  // H100 with the sm_80-only build: every own kernel is missing, the library twins run.
  EXPECT_TRUE(m.devices[1].baseline.empty());
  size_t own = 0;
  for (const auto& r : m.rows) {
    ASSERT_EQ(r.cells.size(), 2u);
    ASSERT_TRUE(r.cells[0] && r.cells[1]) << r.id;
    EXPECT_FALSE(r.cells[1]->change.has_value());  // no baseline for the H100
    ASSERT_TRUE(r.cells[0]->change.has_value());
    if (r.impl == Impl::Own) {
      ++own;
      EXPECT_TRUE(r.cells[1]->verdict.is(ImageOutcome::Missing)) << r.id;
      EXPECT_TRUE(r.cells[1]->failed);
      EXPECT_EQ(r.cells[1]->check, CellCheck::NotChecked);
      EXPECT_FALSE(r.cells[1]->pct_of_ceiling.has_value());
      EXPECT_TRUE(r.cells[0]->verdict.is(ImageOutcome::Sass));
    } else {
      EXPECT_TRUE(r.cells[1]->verdict.is(ImageOutcome::Library)) << r.id;
      EXPECT_TRUE(r.cells[1]->pct_of_ceiling.has_value());
    }
    EXPECT_EQ(r.cells[0]->check, CellCheck::Ok);
  }
  EXPECT_EQ(m.devices[1].failed, own);
  EXPECT_EQ(m.devices[1].verdicts.at("missing"), own);
}

TEST(FleetMatrix, JsonSchema) {
  const auto j = fleet_to_json(fixture_matrix(true));
  EXPECT_EQ(j.at("schema"), "archbench.fleet");
  EXPECT_EQ(j.at("schema_version"), kFleetSchemaVersion);
  ASSERT_EQ(j.at("devices").size(), 2u);
  EXPECT_TRUE(j.at("devices")[1].at("baseline").is_null());
  const auto& first = j.at("operators")[0];
  EXPECT_EQ(first.at("id"), "matmul/gemm_simt/f32/M8192_N960_K320");
  const auto& cell = first.at("cells").at(kH200Key);
  for (const char* f : {"image", "verdict", "correctness", "pct_of_ceiling", "change", "regression", "effect"}) {
    EXPECT_TRUE(cell.contains(f)) << f;
  }
  EXPECT_EQ(first.at("cells").at("nvidia-h100-80gb-hbm3-cc90-80g").at("image"), "missing");
}

TEST(FleetMatrix, SameDeviceTwiceGetsTwoColumns) {
  std::vector<StoredRun> runs{load_stored_run(kFleet + "results_h200.json"), load_stored_run(kFleet + "results_h200.json")};
  const FleetMatrix m = build_fleet_matrix(runs, {}, Thresholds{});
  ASSERT_EQ(m.devices.size(), 2u);
  EXPECT_EQ(m.devices[0].column, kH200Key);
  EXPECT_EQ(m.devices[1].column, kH200Key + "#2");
}

TEST(FleetMarkdown, ProblemsFirstAndEscaped) {
  FleetMatrix m = fixture_matrix(true);
  m.rows[0].id = "evil|<script>x</script>";
  const std::string md = fleet_to_markdown(m);
  EXPECT_LT(md.find("### Failures and regressions"), md.find("### Matrix"));
  EXPECT_NE(md.find("❌ missing"), std::string::npos);
  EXPECT_NE(md.find("🔻 "), std::string::npos);
  EXPECT_EQ(md.find("<script"), std::string::npos);
  EXPECT_NE(md.find("evil\\|&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(md.find("Truncated"), std::string::npos);
}

TEST(FleetMarkdown, TruncatedUnderTheLimitWithANote) {
  const FleetMatrix m = fixture_matrix(true);
  const std::string full = fleet_to_markdown(m);
  const size_t limit = full.size() / 2;
  const std::string cut = fleet_to_markdown(m, limit);
  EXPECT_LE(cut.size(), limit);
  EXPECT_NE(cut.find("**Truncated:**"), std::string::npos);
  EXPECT_NE(cut.find("fleet.html"), std::string::npos);
  EXPECT_EQ(cut.substr(0, 200), full.substr(0, 200));  // the device summary survives
}

TEST(FleetHtml, EveryOperatorAndDevice) {
  FleetMatrix m = fixture_matrix(true);
  m.devices[1].name = "<script>alert(1)</script>";
  const std::string page = html::fleet_page(m);
  for (const auto& r : m.rows) EXPECT_NE(page.find(r.id), std::string::npos) << r.id;
  EXPECT_NE(page.find(kH200Key), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_NE(page.find("st-missing"), std::string::npos);
  EXPECT_NE(page.find("class=\"regression\">slower"), std::string::npos);
}

}  // namespace
}  // namespace archbench
