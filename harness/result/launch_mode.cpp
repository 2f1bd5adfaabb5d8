#include "harness/result/launch_mode.hpp"

namespace archbench {

std::string_view launch_mode_name(LaunchMode m) {
  switch (m) {
    case LaunchMode::Async: return "async";
    case LaunchMode::Blocking: return "blocking";
    case LaunchMode::Graph: return "graph";
  }
  return "?";
}

std::optional<LaunchMode> parse_launch_mode(std::string_view name) {
  for (LaunchMode m : kLaunchModes) {
    if (name == launch_mode_name(m)) return m;
  }
  return std::nullopt;
}

}  // namespace archbench
