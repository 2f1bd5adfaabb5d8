#include "harness/result/result.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace archbench {

std::string_view check_scope_name(CheckScope s) { return s == CheckScope::Quick ? "quick" : "full"; }

bool OperatorResult::failed() const {
  if (image.status == ImageOutcome::Unsupported) return false;
  if (!error.empty() || fault != WorkerFault::None || !image.agrees) return true;
  if (!image.runs()) return true;
  return !correctness || !correctness->correct();
}

std::string Selection::describe() const {
  if (!narrowed()) return fmt::format("all {} operators", registered);
  std::string how;
  if (filter != "*") how += fmt::format("--filter '{}'", filter);
  if (!dtypes.empty()) how += fmt::format("{}--dtype {}", how.empty() ? "" : " ", fmt::join(dtypes, ","));
  return fmt::format("{} of {} operators ({}); {} left out", selected, registered, how, registered - selected);
}

OperatorVerdict operator_verdict(const OperatorResult& r) {
  using Outcome = OperatorVerdict::Outcome;
  if (!r.image.runs()) return {Outcome::Image, r.image.status};
  if (r.fault != WorkerFault::None || !r.error.empty()) return {Outcome::Error, r.image.status};
  if (r.correctness && !r.correctness->correct()) return {Outcome::Wrong, r.image.status};
  return {Outcome::Image, r.image.status};
}

}  // namespace archbench
