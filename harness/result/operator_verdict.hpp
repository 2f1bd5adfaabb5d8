// The verdict one operator's cell shows (the HTML heat map, the fleet matrix): its image verdict,
// unless the image ran and the operator then erred or computed a wrong result; in a fleet matrix
// also "absent" (in the device's baseline, not in its run). Its name is the fleet JSON's
// "verdict" and the HTML cell's class.
#pragma once

#include <string_view>

#include "harness/result/image_verdict.hpp"

namespace archbench {

struct OperatorVerdict {
  enum class Outcome {
    Image,   // the image verdict says it all (it ran and was right, or it did not run)
    Error,   // "error": the image ran, then a CUDA/library error or a worker fault
    Wrong,   // "wrong": the image ran and the result is wrong
    Absent,  // "absent": in the baseline, not in the run (fleet matrix only)
  };
  Outcome outcome = Outcome::Image;
  ImageVerdict image = ImageVerdict::NotProbed;

  [[nodiscard]] bool is(ImageVerdict v) const { return outcome == Outcome::Image && image == v; }
  // The image verdict's name for Image, else "error", "wrong" or "absent".
  [[nodiscard]] std::string_view name() const;
  friend bool operator==(const OperatorVerdict&, const OperatorVerdict&) = default;
};

}  // namespace archbench
