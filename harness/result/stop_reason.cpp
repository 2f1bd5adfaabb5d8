#include "harness/result/stop_reason.hpp"

#include "harness/util/enum_names.hpp"

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
  return parse_by_name(kStopReasons, stop_reason_name, name);
}

}  // namespace archbench
