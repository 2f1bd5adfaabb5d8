// The image verdict of one operator on one device: which image runs, or why none does. Its name
// is the run JSON's "image.status"; everything else reads the enum and the classifiers below.
#pragma once

#include <string_view>

#include "harness/arch/image_outcome.hpp"

namespace archbench {


// The build or the driver left a kernel without an image that loads here (missing, ptx-too-new,
// jit-disabled): a finding with a cause and a fix, unlike a library's failure or a crash.
[[nodiscard]] bool lacks_loadable_image(ImageOutcome v);

// `archbench compare`'s image regression: the operator runs worse now than it did, on the same
// device. Runs from SASS or a library < runs only through the JIT < does not run; "unsupported"
// counts as running (a property of the device, which the comparison's key fixes).
[[nodiscard]] bool image_regressed(ImageOutcome before, ImageOutcome now);

}  // namespace archbench
