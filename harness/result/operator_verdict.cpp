#include "harness/result/operator_verdict.hpp"

namespace archbench {

std::string_view OperatorVerdict::name() const {
  switch (outcome) {
    case Outcome::Image: return outcome_name(image);
    case Outcome::Error: return "error";
    case Outcome::Wrong: return "wrong";
    case Outcome::Absent: return "absent";
  }
  return "?";
}

std::optional<OperatorVerdict> parse_operator_verdict(std::string_view name, ImageOutcome image) {
  using Outcome = OperatorVerdict::Outcome;
  for (Outcome o : {Outcome::Error, Outcome::Wrong, Outcome::Absent}) {
    if (OperatorVerdict{o, image}.name() == name) return OperatorVerdict{o, image};
  }
  auto v = parse_name(kImageOutcomes, name);
  if (!v) v = parse_name(kImageOutcomeAliases, name);  // a path verdict of a file written before 2026-12-06
  if (!v || *v != image) return std::nullopt;
  return OperatorVerdict{Outcome::Image, *v};
}

}  // namespace archbench
