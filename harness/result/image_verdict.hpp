// The image verdict of one operator on one device: which image runs, or why none does. Its name
// is the run JSON's "image.status"; everything else reads the enum and the classifiers below.
#pragma once

#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class ImageVerdict {
  NotProbed,     // its worker ended (crashed, hung, failed) before probing it
  Sass,          // every kernel loads SASS built for this device
  PtxJit,        // a kernel loads only through the driver's JIT of its PTX
  Library,       // a library twin; the library's images are its own business
  Unsupported,   // the device is below the operator's minimum compute capability
  Missing,       // a kernel has no image for this device
  PtxTooNew,     // a kernel's only image is PTX newer than the driver can JIT
  JitDisabled,   // a kernel's only image is PTX and CUDA_DISABLE_PTX_JIT forbids the JIT
  LibraryError,  // the library refused the problem or failed
};

// The names in the run JSON and in text.
inline constexpr auto kImageVerdicts = enum_names<ImageVerdict>({
    {ImageVerdict::NotProbed, ""},
    {ImageVerdict::Sass, "sass"},
    {ImageVerdict::PtxJit, "ptx-jit"},
    {ImageVerdict::Library, "library"},
    {ImageVerdict::Unsupported, "unsupported"},
    {ImageVerdict::Missing, "missing"},
    {ImageVerdict::PtxTooNew, "ptx-too-new"},
    {ImageVerdict::JitDisabled, "jit-disabled"},
    {ImageVerdict::LibraryError, "library-error"},
});

[[nodiscard]] constexpr std::string_view image_verdict_name(ImageVerdict v) { return name_of(kImageVerdicts, v); }

// The build or the driver left a kernel without an image that loads here (missing, ptx-too-new,
// jit-disabled): a finding with a cause and a fix, unlike a library's failure or a crash.
[[nodiscard]] bool lacks_loadable_image(ImageVerdict v);

// `archbench compare`'s image regression: the operator runs worse now than it did, on the same
// device. Runs from SASS or a library < runs only through the JIT < does not run; "unsupported"
// counts as running (a property of the device, which the comparison's key fixes).
[[nodiscard]] bool image_regressed(ImageVerdict before, ImageVerdict now);

}  // namespace archbench
