#include "harness/result/phase.hpp"

#include "harness/util/enum_names.hpp"

namespace archbench {

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::Check: return "check";
    case Phase::Time: return "time";
  }
  return "?";
}

std::optional<Phase> parse_phase(std::string_view name) { return parse_by_name(kPhases, phase_name, name); }

}  // namespace archbench
