// The HTML/SVG writers of `archbench report` and `archbench merge`, on the fleet fixtures
// (suites/fixtures/fleet: a real H200 run, reduced, and a second device SYNTHESIZED from it; see
// make_fleet_fixtures.py): markup is balanced, every operator appears, hostile names are escaped.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "harness/report/html_bar_chart.hpp"
#include "harness/report/html_escape.hpp"
#include "harness/report/html_heatmap.hpp"
#include "harness/report/html_roofline.hpp"
#include "harness/report/html_run_report.hpp"
#include "harness/result/path_choice.hpp"
#include "kernels/path_preference.hpp"

namespace archbench {
namespace {

const std::string kFleet = std::string(ARCHBENCH_TEST_FIXTURES) + "/fleet/";

// Every tag opened in `markup` is closed in order (void HTML elements and <!...> aside): enough to
// catch a writer that drops a closing tag or lets text open one.
bool balanced(std::string_view markup, std::string* why = nullptr) {
  static const std::vector<std::string> kVoid{"meta", "br", "hr", "img", "input", "link"};
  std::vector<std::string> open;
  for (size_t i = markup.find('<'); i != std::string_view::npos; i = markup.find('<', i + 1)) {
    const size_t end = markup.find('>', i);
    if (end == std::string_view::npos) {
      if (why) *why = "unterminated tag at " + std::to_string(i);
      return false;
    }
    std::string_view tag = markup.substr(i + 1, end - i - 1);
    if (tag.empty() || tag[0] == '!') continue;
    const bool closing = tag[0] == '/';
    const bool self_closing = tag.back() == '/';
    if (closing) tag.remove_prefix(1);
    const std::string name(tag.substr(0, tag.find_first_of(" \t\n/")));
    if (self_closing || std::ranges::find(kVoid, name) != kVoid.end()) continue;
    if (!closing) {
      open.push_back(name);
    } else if (open.empty() || open.back() != name) {
      if (why) *why = "</" + name + "> closes " + (open.empty() ? std::string("nothing") : "<" + open.back() + ">");
      return false;
    } else {
      open.pop_back();
    }
  }
  if (!open.empty() && why) *why = "<" + open.back() + "> never closed";
  return open.empty();
}

size_t count(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t i = text.find(what); i != std::string_view::npos; i = text.find(what, i + 1)) ++n;
  return n;
}

TEST(HtmlEscape, EscapesMarkupAndQuotes) {
  EXPECT_EQ(html::escape("<script>alert('x')</script> & \"y\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;");
  EXPECT_EQ(html::escape("plain/op_1"), "plain/op_1");
}

// Markup built from hostile input is balanced, holds no <script element and no `tag` (from the
// input), and shows `escaped` as text instead.
void expect_inert(const std::string& markup, const std::string& tag, const std::string& escaped) {
  std::string why;
  EXPECT_TRUE(balanced(markup, &why)) << why;
  EXPECT_EQ(markup.find("<script"), std::string::npos);
  EXPECT_EQ(markup.find(tag), std::string::npos) << tag;
  EXPECT_NE(markup.find(escaped), std::string::npos) << escaped;
}

TEST(HtmlCharts, HeatMapIsBalancedAndEscapesNames) {
  html::HeatMap m;
  m.rows = {"matmul/gemm/M1", "evil/<script>alert(1)</script>/S"};
  m.columns = {"f16", "bf16"};
  using Outcome = OperatorVerdict::Outcome;
  m.cells[{0, 0}] = {{Outcome::Image, ImageOutcome::Sass}, "ok"};
  m.cells[{1, 1}] = {{Outcome::Image, ImageOutcome::Missing}, "<img src=x onerror=alert(1)>"};
  const std::string svg = html::svg_heatmap(m);
  expect_inert(svg, "<img", "&lt;script&gt;");
  EXPECT_EQ(count(svg, "<rect"), 4u);  // 2x2, the two empty cells drawn blank
  EXPECT_NE(svg.find(R"(data-status="missing")"), std::string::npos);
}

TEST(HtmlCharts, BarChartMarksTheBaseline) {
  std::vector<html::Bar> bars{{"gemm/f16", 40, 55.0, "#f28e2b", ""}, {"gemm/bf16", 120, std::nullopt, "#3aa39a", ""}};
  const std::string svg = html::svg_bar_chart(bars, "%", 100);
  std::string why;
  EXPECT_TRUE(balanced(svg, &why)) << why;
  EXPECT_EQ(count(svg, "class=\"marker\""), 1u);
  EXPECT_NE(svg.find("baseline 55.0%"), std::string::npos);
  EXPECT_NE(svg.find(">120%<"), std::string::npos);  // the scale grows past 100 for the largest bar
}

TEST(HtmlCharts, RooflineDrawsRoofsAndPlaceablePoints) {
  const std::string svg = html::svg_roofline({{"f16 700 TFLOP/s", 700, "#f28e2b"}, {"f32 50 TFLOP/s", 50, "#4e79a7"}}, 4000,
                                             {{"a", 300, 250, "#000"}, {"b", 0.5, 1.5, "#000"}, {"no-flops", 0, 0, "#000"}});
  std::string why;
  EXPECT_TRUE(balanced(svg, &why)) << why;
  EXPECT_EQ(count(svg, "<path"), 2u);
  EXPECT_EQ(count(svg, "<circle"), 2u);
  EXPECT_NE(svg.find("1 operator(s) without FLOPs or timing not shown"), std::string::npos);
}

TEST(HtmlRunReport, H200FixtureHasEveryOperatorAndSection) {
  const StoredRun run = load_stored_run(kFleet + "results_h200.json");
  html::RunReportInputs in;
  in.run = &run;
  in.baselines[html::baseline_slot(run.devices[0])] = load_baseline(kFleet + "baselines/nvidia-h200-cc90-140g.json");
  const std::string page = html::run_report_page(in);
  std::string why;
  EXPECT_TRUE(balanced(page, &why)) << why;
  for (const auto& op : run.devices[0].results.operators) EXPECT_NE(page.find(op.id), std::string::npos) << op.id;
  for (const char* section : {"Regressions and failures", "Image verdicts", "% of ceiling per family", "Roofline",
                              "Device and environment", "Build manifest"}) {
    EXPECT_NE(page.find(section), std::string::npos) << section;
  }
  // Regressions come before the charts; the baseline synthesizes three slower operators.
  EXPECT_LT(page.find("Regressions and failures"), page.find("Image verdicts"));
  EXPECT_EQ(count(page, "<td class=\"regression\">slower</td>"), 3u);
  EXPECT_EQ(count(page, "class=\"heatmap\""), 1u);
  EXPECT_EQ(count(page, "class=\"bars\""), 5u);  // one per family
  EXPECT_GT(count(page, "class=\"marker\""), 0u);
  EXPECT_EQ(count(page, "class=\"roofline\""), 1u);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("http://"), page.find("http://www.w3.org/2000/svg"));  // the SVG namespace only: no network
  EXPECT_EQ(page.find("https://"), std::string::npos);
}

// A partial run against the full baseline: the operators it lacks are one row after the real
// changes, not one row each.
TEST(HtmlRunReport, APartialRunsAbsentOperatorsAreOneRow) {
  StoredRun run = load_stored_run(kFleet + "results_h200.json");
  auto& ops = run.devices[0].results.operators;
  const size_t all = ops.size();
  ops.resize(5);
  html::RunReportInputs in;
  in.run = &run;
  in.baselines[html::baseline_slot(run.devices[0])] = load_baseline(kFleet + "baselines/nvidia-h200-cc90-140g.json");
  const std::string page = html::run_report_page(in);
  EXPECT_EQ(count(page, "<td class=\"regression\">absent</td>"), 1u);
  EXPECT_NE(page.find(std::to_string(all - 5) + " operator(s)</td>"), std::string::npos);
  EXPECT_NE(page.find("archbench compare --filter"), std::string::npos);
}

// A run file written before the run recorded its path choices loads without them and shows no
// such section; with them, one row per family and dtype.
TEST(HtmlRunReport, WhichPathRunsWhenTheRunRecordedIt) {
  StoredRun run = load_stored_run(kFleet + "results_h200.json");
  ASSERT_TRUE(run.devices[0].paths.empty());
  html::RunReportInputs in;
  in.run = &run;
  EXPECT_EQ(html::run_report_page(in).find("Which path runs"), std::string::npos);
  run.devices[0].paths = choose_paths(run.devices[0].results.operators, kernels::path_preferences());
  ASSERT_FALSE(run.devices[0].paths.empty());
  const std::string page = html::run_report_page(in);
  std::string why;
  EXPECT_TRUE(balanced(page, &why)) << why;
  EXPECT_NE(page.find("<h2>Which path runs</h2>"), std::string::npos);
  EXPECT_NE(page.find("<tr><td>matmul</td><td>f16</td><td>gemm_"), std::string::npos) << page;
}

TEST(HtmlRunReport, HostileOperatorIdsAreText) {
  StoredRun run = load_stored_run(kFleet + "results_h100_sm80build.json");
  auto& op = run.devices[0].results.operators[0];
  op.id = "matmul/<script>alert(1)</script>/f16/\"onload=x";
  op.name = "<script>alert(2)</script>";
  op.image.cause = "<b>bold</b>";
  run.devices[0].results.device.name = "GPU <script>alert(3)</script>";
  html::RunReportInputs in;
  in.run = &run;
  const std::string page = html::run_report_page(in);
  expect_inert(page, "<b>bold", "&lt;script&gt;alert(1)&lt;/script&gt;");
  // The synthesized second device: own kernels missing, the failures listed first.
  EXPECT_GT(count(page, "<td>failed</td>"), 10u);
}

TEST(HtmlRunReport, OperatorVerdict) {
  using Outcome = OperatorVerdict::Outcome;
  OperatorResult r;
  r.image.status = ImageOutcome::Sass;
  EXPECT_EQ(operator_verdict(r), (OperatorVerdict{Outcome::Image, ImageOutcome::Sass}));
  EXPECT_EQ(operator_verdict(r).name(), "sass");
  r.correctness = CorrectnessResult{};
  EXPECT_EQ(operator_verdict(r).outcome, Outcome::Wrong);
  EXPECT_EQ(operator_verdict(r).name(), "wrong");
  r.correctness->passed = r.correctness->bench_shape_finite = true;
  r.error = "cudaErrorIllegalAddress";
  EXPECT_EQ(operator_verdict(r).name(), "error");
  r.error.clear();
  r.fault = WorkerFault::Hung;
  EXPECT_EQ(operator_verdict(r).outcome, Outcome::Error);
  r.image.status = ImageOutcome::Missing;  // an image that does not run says it all
  EXPECT_TRUE(operator_verdict(r).is(ImageOutcome::Missing));
  EXPECT_EQ(operator_verdict(r).name(), "missing");
  EXPECT_EQ((OperatorVerdict{Outcome::Absent, ImageOutcome::NotProbed}).name(), "absent");
}

}  // namespace
}  // namespace archbench
