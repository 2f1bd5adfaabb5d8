// The two phases of a run on one device, each in its own worker processes: the check (image probe,
// correctness, CUDA_LAUNCH_BLOCKING=1) and the timing. Its name is the worker's --phase, the key of
// "phase_seconds" in the run JSON and the progress line's label.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace archbench {

enum class Phase {
  Check,  // "check"
  Time,   // "time"
};

inline constexpr std::array kPhases = {Phase::Check, Phase::Time};

[[nodiscard]] std::string_view phase_name(Phase p);  // "check", "time"
// The phase of a name; nullopt for a name this archbench does not know.
[[nodiscard]] std::optional<Phase> parse_phase(std::string_view name);

}  // namespace archbench
