#include "harness/result/result.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace archbench {

std::string_view check_scope_name(CheckScope s) { return s == CheckScope::Quick ? "quick" : "full"; }

bool OperatorResult::failed() const {
  if (image.status == ImageVerdict::Unsupported) return false;
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

std::string verdict_status(const OperatorResult& r) {
  const std::string image(image_verdict_name(r.image.status));
  if (!r.image.runs()) return image;
  if (r.fault != WorkerFault::None || !r.error.empty()) return "error";
  if (r.correctness && !r.correctness->correct()) return "wrong";
  return image;
}

}  // namespace archbench
