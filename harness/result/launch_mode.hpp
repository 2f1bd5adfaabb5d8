// How the launches a result measured were issued. Its name is the run JSON's "correctness.mode"
// and "timing.mode".
#pragma once

#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class LaunchMode {
  Async,     // one by one, the host not waiting for each
  Blocking,  // one by one under CUDA_LAUNCH_BLOCKING=1 (every check runs so)
  Graph,     // replayed from a CUDA graph (archbench run --cuda-graph; timing only)
};

inline constexpr auto kLaunchModes = enum_names<LaunchMode>(
    {{LaunchMode::Async, "async"}, {LaunchMode::Blocking, "blocking"}, {LaunchMode::Graph, "graph"}});

[[nodiscard]] constexpr std::string_view launch_mode_name(LaunchMode m) { return name_of(kLaunchModes, m); }

}  // namespace archbench
