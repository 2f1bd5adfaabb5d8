#include "harness/result/launch_mode.hpp"

#include "harness/util/enum_names.hpp"

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
  return parse_by_name(kLaunchModes, launch_mode_name, name);
}

}  // namespace archbench
