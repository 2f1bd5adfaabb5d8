#include "harness/result/stop_reason.hpp"

namespace archbench {

std::string_view stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::NotRecorded: return "";
    case StopReason::NoiseTarget: return "noise target";
    case StopReason::TimeCap: return "time cap";
    case StopReason::MaxSamples: return "max samples";
  }
  return "?";
}

std::optional<StopReason> parse_stop_reason(std::string_view name) {
  for (StopReason r : kStopReasons) {
    if (name == stop_reason_name(r)) return r;
  }
  return std::nullopt;
}

}  // namespace archbench
