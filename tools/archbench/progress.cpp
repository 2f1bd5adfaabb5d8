#include "tools/archbench/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace archbench::cli {
namespace {

size_t terminal_width(std::FILE* out) {
  winsize ws{};
  if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) return ws.ws_col;
  return 80;
}

}  // namespace

RunProgress::Style RunProgress::detect(std::FILE* out, bool quiet) {
  if (quiet) return Style::Quiet;
  const char* term = std::getenv("TERM");
  if (isatty(fileno(out)) != 0 && (term == nullptr || std::strcmp(term, "dumb") != 0)) return Style::Terminal;
  return Style::Lines;
}

RunProgress::RunProgress(std::FILE* out, Style style, bool colour)
    : out_(out), style_(style), colour_(colour && style == Style::Terminal), now_([] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
      }) {}

void RunProgress::begin_phase(int device, const std::string& label, Phase phase, size_t total) {
  device_ = device;
  label_ = label;
  phase_ = phase;
  total_ = total;
  done_ = 0;
  phase_start_ = now_();
}

std::string RunProgress::terminal_prefix(double elapsed_s) const {
  if (elapsed_s < 1.0 || done_ == 0 || total_ == 0) return fmt::format("[gpu{} {} {}/{}]", device_, label_, done_, total_);
  constexpr size_t kBar = 10;
  const size_t done = std::min(done_, total_);  // a repeated event must not wrap the arithmetic
  const size_t filled = kBar * done / total_;
  const auto left = static_cast<long>(std::lround(elapsed_s / static_cast<double>(done) *
                                                  static_cast<double>(total_ - done)));
  return fmt::format("[gpu{} {} {}/{} {}{} {}:{:02} left]", device_, label_, done, total_, std::string(filled, '#'),
                     std::string(kBar - filled, '-'), left / 60, left % 60);
}

std::string RunProgress::line(const std::string& id, const std::string& verdict) const {
  return fmt::format("[gpu{} {} {}/{}] {}{}{}", device_, label_, done_, total_, id, verdict.empty() ? "" : " ", verdict);
}

std::string RunProgress::verdict(Phase phase, const OperatorResult& r, bool& bad) {
  bad = r.failed();
  if (r.fault != WorkerFault::None) return std::string(worker_fault_name(r.fault));
  if (phase == Phase::Time) {
    if (!r.error.empty()) return "error: " + r.error;
    return r.timing ? fmt::format("{:.4f} ms, {:.0f}% of ceiling", r.timing->median_ms, r.timing->pct_of_ceiling) : "not timed";
  }
  std::string v = r.image.label;
  if (!r.error.empty()) v += ", error";
  else if (r.correctness) v += fmt::format(", {} {:.1e}", r.correctness->passed ? "ok" : "WRONG", r.correctness->rel_error);
  return v;
}

void RunProgress::show(const std::string& id, const std::string& verdict, bool bad, bool final_line) {
  if (style_ == Style::Quiet) return;
  if (style_ == Style::Lines) {
    if (final_line) std::fprintf(out_, "%s\n", line(id, verdict).c_str());
    std::fflush(out_);
    return;
  }
  // One line, rewritten: cut to the width so it never wraps (a wrapped line cannot be rewritten).
  std::string text = terminal_prefix(now_() - phase_start_) + " " + id;
  const size_t width = terminal_width(out_) - 1;
  std::string v = verdict;
  if (text.size() + 1 + v.size() > width) v.clear();
  if (text.size() > width) text = text.substr(0, width - 1) + "~";
  std::string coloured = v;
  if (colour_ && !v.empty()) coloured = (bad ? "\033[31m" : "\033[32m") + v + "\033[0m";
  std::fprintf(out_, "\r\033[K%s%s%s", text.c_str(), v.empty() ? "" : " ", coloured.c_str());
  std::fflush(out_);
}

void RunProgress::started(const std::string& id) { show(id, "...", false, false); }

void RunProgress::finished(const OperatorResult& r) {
  ++done_;
  bool bad = false;
  const std::string v = verdict(phase_, r, bad);
  show(r.id, v, bad, true);
}

void RunProgress::faulted(const std::string& id, WorkerFault fault) {
  ++done_;
  show(id, std::string(worker_fault_name(fault)), true, true);
}

std::function<void(const WorkerEvent&)> RunProgress::listener() {
  return [this](const WorkerEvent& e) {
    if (e.kind == WorkerEvent::Kind::Started) started(e.id);
    else if (e.kind == WorkerEvent::Kind::Finished) finished(*e.result);
    else faulted(e.id, e.fault);
  };
}

void RunProgress::end_phase() {
  if (style_ == Style::Terminal) {
    std::fprintf(out_, "\r\033[K");
    std::fflush(out_);
  }
}

}  // namespace archbench::cli
