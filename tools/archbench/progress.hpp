// Progress of `archbench run` and of the doctor's workload passes on stderr, fed by the worker supervisor as operators start and
// finish. On a terminal: one line rewritten in place ("\r", cut to the terminal's width) with the
// verdict coloured (unless NO_COLOR is set), and once a phase has run for a second, a bar and the
// time left at the pace so far. Otherwise (CI logs, files): one plain line per
// finished operator, no colour, no control characters. --quiet: nothing.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

#include "harness/result/result.hpp"
#include "tools/archbench/worker_process.hpp"

namespace archbench::cli {

class RunProgress {
 public:
  enum class Style { Quiet, Lines, Terminal };
  // Terminal when `out` is a TTY and TERM is not "dumb"; Lines otherwise; Quiet when asked.
  static Style detect(std::FILE* out, bool quiet);

  RunProgress(std::FILE* out, Style style, bool colour);
  // `label` names the pass in the progress lines ("check", "time", the doctor's "no-jit", ...);
  // `phase` decides what a finished operator's line says (its check or its timing).
  void begin_phase(int device, const std::string& label, Phase phase, size_t total);
  void started(const std::string& id);
  void finished(const OperatorResult& r);
  void faulted(const std::string& id, WorkerFault fault);
  void end_phase();  // clears the terminal line
  // For WorkerRequest::on_event: started, finished and faulted as the workers report them (run's
  // phases and the doctor's workload passes alike).
  [[nodiscard]] std::function<void(const WorkerEvent&)> listener();

  // The plain line for a finished operator, e.g. "[gpu0 check 3/192] matmul/... sass sm_90, ok 3.2e-07"
  // (no colour); public for tests.
  [[nodiscard]] std::string line(const std::string& id, const std::string& verdict) const;
  // The terminal's prefix with the bar and the time left, e.g. "[gpu0 check 50/199 ###------- 0:31 left]",
  // after `elapsed_s` seconds of the phase; plain "[gpu0 check 50/199]" in its first second or before
  // the first operator is done.
  [[nodiscard]] std::string terminal_prefix(double elapsed_s) const;
  // The monotonic clock, in seconds, that phases are timed by (a fake one for tests; set it before
  // begin_phase).
  void set_clock(std::function<double()> seconds_now) { now_ = std::move(seconds_now); }
  [[nodiscard]] static std::string verdict(Phase phase, const OperatorResult& r, bool& bad);

 private:
  void show(const std::string& id, const std::string& verdict, bool bad, bool final_line);
  std::FILE* out_;
  Style style_;
  bool colour_;
  int device_ = 0;
  std::string label_;
  Phase phase_ = Phase::Check;
  size_t total_ = 0, done_ = 0;
  std::function<double()> now_;  // monotonic seconds
  double phase_start_ = 0;
};

}  // namespace archbench::cli
