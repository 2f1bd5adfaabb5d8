// The verdict one operator's cell shows (the HTML heat map, the fleet matrix, a path choice): its
// image verdict, unless the image ran and the operator then erred or computed a wrong result; also
// "absent" (not in the run). Its name is the fleet JSON's and the run JSON's path "verdict" and the
// HTML cell's class.
#pragma once

#include <optional>
#include <string_view>

#include "harness/result/image_verdict.hpp"

namespace archbench {

struct OperatorVerdict {
  enum class Outcome {
    Image,   // the image verdict says it all (it ran and was right, or it did not run)
    Error,   // "error": the image ran, then a CUDA/library error or a worker fault
    Wrong,   // "wrong": the image ran and the result is wrong
    Absent,  // "absent": not in the run (a fleet matrix: in the baseline only; a path choice: not run)
  };
  Outcome outcome = Outcome::Image;
  ImageOutcome image = ImageOutcome::NotProbed;

  [[nodiscard]] bool is(ImageOutcome v) const { return outcome == Outcome::Image && image == v; }
  // The image verdict's name for Image, else "error", "wrong" or "absent".
  [[nodiscard]] std::string_view name() const;
  friend bool operator==(const OperatorVerdict&, const OperatorVerdict&) = default;
};

// The verdict of a name() and the image verdict written beside it (a name of error or wrong does
// not carry the image); nullopt for a name this archbench does not know.
[[nodiscard]] std::optional<OperatorVerdict> parse_operator_verdict(std::string_view name, ImageOutcome image);

}  // namespace archbench
