// How the launches a result measured were issued. Its name is the run JSON's "correctness.mode"
// and "timing.mode".
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace archbench {

enum class LaunchMode {
  Async,     // "async": one by one, the host not waiting for each
  Blocking,  // "blocking": one by one under CUDA_LAUNCH_BLOCKING=1 (every check runs so)
  Graph,     // "graph": replayed from a CUDA graph (archbench run --cuda-graph; timing only)
};

inline constexpr std::array kLaunchModes = {LaunchMode::Async, LaunchMode::Blocking, LaunchMode::Graph};

[[nodiscard]] std::string_view launch_mode_name(LaunchMode m);  // "async", "blocking", "graph"
// The mode of a name; nullopt for a name this archbench does not know.
[[nodiscard]] std::optional<LaunchMode> parse_launch_mode(std::string_view name);

}  // namespace archbench
