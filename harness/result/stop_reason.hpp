// Why the timer stopped taking samples (harness/run/timer.hpp). Its name is the run JSON's
// "timing.stop_reason".
#pragma once

#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class StopReason {
  NotRecorded,  // timings the timer did not take (results built by hand, as tests do)
  NoiseTarget,  // the median's relative standard error fell below the target
  TimeCap,      // the operator's time ran out first
  MaxSamples,   // the sample count ran out first
};

inline constexpr auto kStopReasons = enum_names<StopReason>({
    {StopReason::NotRecorded, ""},
    {StopReason::NoiseTarget, "noise target"},
    {StopReason::TimeCap, "time cap"},
    {StopReason::MaxSamples, "max samples"},
});

[[nodiscard]] constexpr std::string_view stop_reason_name(StopReason r) { return name_of(kStopReasons, r); }

}  // namespace archbench
