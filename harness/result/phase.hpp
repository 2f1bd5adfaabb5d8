// The two phases of a run on one device, each in its own worker processes: the check (image probe,
// correctness, CUDA_LAUNCH_BLOCKING=1) and the timing. Its name is the worker's --phase, the key of
// "phase_seconds" in the run JSON and the progress line's label.
#pragma once

#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class Phase {
  Check,
  Time,
};

inline constexpr auto kPhases = enum_names<Phase>({
    {Phase::Check, "check"},
    {Phase::Time, "time"},
});

[[nodiscard]] constexpr std::string_view phase_name(Phase p) { return name_of(kPhases, p); }

}  // namespace archbench
