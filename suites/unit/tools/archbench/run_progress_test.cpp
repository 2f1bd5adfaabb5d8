// archbench run's progress display (tools/archbench/progress.hpp): plain lines without control
// characters off a terminal, an in-place line with colour on one, nothing with --quiet.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tools/archbench/progress.hpp"
#include "suites/unit/tools/archbench/progress_fixtures.hpp"

namespace archbench::cli {
namespace {

std::string drive(RunProgress::Style style, bool colour) {
  std::FILE* f = std::tmpfile();
  {
    RunProgress p(f, style, colour);
    p.begin_phase(0, "check", Phase::Check, 2);
    p.started("matmul/a/f16/S");
    p.finished(ok_result("matmul/a/f16/S"));
    p.started("matmul/b/f16/S");
    p.faulted("matmul/b/f16/S", WorkerFault::Hung);
    p.end_phase();
  }
  return read_and_close(f);
}

TEST(RunProgress, PlainLinesOffATerminal) {
  const std::string out = drive(RunProgress::Style::Lines, true);
  EXPECT_EQ(out, "[gpu0 check 1/2] matmul/a/f16/S sass sm_90, ok 3.2e-07\n[gpu0 check 2/2] matmul/b/f16/S hung\n");
  EXPECT_EQ(out.find('\033'), std::string::npos);  // no colour even when asked: not a terminal
  EXPECT_EQ(out.find('\r'), std::string::npos);
}

TEST(RunProgress, OneLineInPlaceOnATerminal) {
  const std::string out = drive(RunProgress::Style::Terminal, true);
  EXPECT_NE(out.find("\r\033[K[gpu0 check 0/2] matmul/a/f16/S"), std::string::npos);
  EXPECT_NE(out.find("\033[32msass sm_90, ok 3.2e-07\033[0m"), std::string::npos);  // green: fine
  EXPECT_NE(out.find("\033[31mhung\033[0m"), std::string::npos);                    // red: a fault
  EXPECT_EQ(out.find('\n'), std::string::npos);  // never scrolls
  EXPECT_EQ(out.substr(out.size() - 4), "\r\033[K");  // cleared at the end of the phase
  const std::string plain = drive(RunProgress::Style::Terminal, false);  // NO_COLOR
  EXPECT_EQ(plain.find("\033[3"), std::string::npos);
}

TEST(RunProgress, BarAndTimeLeftOnceAPhaseRunsASecond) {
  std::FILE* f = std::tmpfile();
  RunProgress p(f, RunProgress::Style::Terminal, false);
  double now = 100.0;
  p.set_clock([&] { return now; });
  p.begin_phase(0, "check", Phase::Check, 200);
  EXPECT_EQ(p.terminal_prefix(0.0), "[gpu0 check 0/200]");
  for (int i = 0; i < 50; ++i) p.finished(ok_result("matmul/a/f16/S"));
  EXPECT_EQ(p.terminal_prefix(0.5), "[gpu0 check 50/200]") << "nothing to estimate in the first second";
  // 50 of 200 in 10 s: 150 left at 0.2 s each.
  EXPECT_EQ(p.terminal_prefix(10.0), "[gpu0 check 50/200 ##-------- 0:30 left]");
  EXPECT_EQ(p.terminal_prefix(100.0), "[gpu0 check 50/200 ##-------- 5:00 left]");
  now = 110.0;
  p.started("matmul/b/f16/S");  // the in-place line carries the prefix
  std::fclose(f);
}

TEST(RunProgress, QuietWritesNothing) { EXPECT_EQ(drive(RunProgress::Style::Quiet, true), ""); }

TEST(RunProgress, DetectsNonTerminal) {
  std::FILE* f = std::tmpfile();
  EXPECT_EQ(RunProgress::detect(f, false), RunProgress::Style::Lines);
  EXPECT_EQ(RunProgress::detect(f, true), RunProgress::Style::Quiet);
  std::fclose(f);
}

TEST(RunProgress, TimingVerdict) {
  OperatorResult r = ok_result("x");
  TimingResult t;
  t.median_ms = 0.1234;
  t.pct_of_ceiling = 69.4;
  r.timing = t;
  bool bad = true;
  EXPECT_EQ(RunProgress::verdict(Phase::Time, r, bad), "0.1234 ms, 69% of ceiling");
  EXPECT_FALSE(bad);
  r.image.status = ImageOutcome::Missing;
  r.image.label = "missing";
  r.correctness.reset();
  EXPECT_EQ(RunProgress::verdict(Phase::Check, r, bad), "missing");
  EXPECT_TRUE(bad);
}

}  // namespace
}  // namespace archbench::cli
