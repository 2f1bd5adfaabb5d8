#include "harness/result/operator_verdict.hpp"

namespace archbench {

std::string_view OperatorVerdict::name() const {
  switch (outcome) {
    case Outcome::Image: return image_verdict_name(image);
    case Outcome::Error: return "error";
    case Outcome::Wrong: return "wrong";
    case Outcome::Absent: return "absent";
  }
  return "?";
}

}  // namespace archbench
