// Why the timer stopped taking samples (harness/run/timer.hpp). Its name is the run JSON's
// "timing.stop_reason".
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace archbench {

enum class StopReason {
  NotRecorded,  // "": timings the timer did not take (results built by hand, as tests do)
  NoiseTarget,  // "noise target": the median's relative standard error fell below the target
  TimeCap,      // "time cap": the operator's time ran out first
  MaxSamples,   // "max samples": the sample count ran out first
};

inline constexpr std::array kStopReasons = {StopReason::NotRecorded, StopReason::NoiseTarget, StopReason::TimeCap,
                                            StopReason::MaxSamples};

[[nodiscard]] std::string_view stop_reason_name(StopReason r);  // "", "noise target", "time cap", "max samples"
// The reason of a name; nullopt for a name this archbench does not know.
[[nodiscard]] std::optional<StopReason> parse_stop_reason(std::string_view name);

}  // namespace archbench
