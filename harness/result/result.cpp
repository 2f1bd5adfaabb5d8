#include "harness/result/result.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace archbench {

std::string_view check_scope_name(CheckScope s) { return s == CheckScope::Quick ? "quick" : "full"; }

bool OperatorResult::failed() const {
  if (image.status == "unsupported") return false;
  if (!error.empty() || !fault.empty() || !image.agrees) return true;
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

std::string verdict_status(const OperatorResult& r) {
  if (!r.image.runs()) return r.image.status;
  if (!r.fault.empty() || !r.error.empty()) return "error";
  if (r.correctness && !r.correctness->correct()) return "wrong";
  return r.image.status;
}

}  // namespace archbench
