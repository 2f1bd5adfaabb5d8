// The image verdict of one operator on one device: which image runs, or why none does. Its name
// is the run JSON's "image.status"; everything else reads the enum and the classifiers below.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace archbench {

enum class ImageVerdict {
  NotProbed,     // "": its worker ended (crashed, hung, failed) before probing it
  Sass,          // "sass": every kernel loads SASS built for this device
  PtxJit,        // "ptx-jit": a kernel loads only through the driver's JIT of its PTX
  Library,       // "library": a library twin; the library's images are its own business
  Unsupported,   // "unsupported": the device is below the operator's minimum compute capability
  Missing,       // "missing": a kernel has no image for this device
  PtxTooNew,     // "ptx-too-new": a kernel's only image is PTX newer than the driver can JIT
  JitDisabled,   // "jit-disabled": a kernel's only image is PTX and CUDA_DISABLE_PTX_JIT forbids the JIT
  LibraryError,  // "library-error": the library refused the problem or failed
};

inline constexpr std::array kImageVerdicts = {
    ImageVerdict::NotProbed, ImageVerdict::Sass,    ImageVerdict::PtxJit,    ImageVerdict::Library,      ImageVerdict::Unsupported,
    ImageVerdict::Missing,   ImageVerdict::PtxTooNew, ImageVerdict::JitDisabled, ImageVerdict::LibraryError,
};

// The name in the run JSON and in text ("sass", "ptx-jit", ...; "" for NotProbed).
[[nodiscard]] std::string_view image_verdict_name(ImageVerdict v);
// The verdict of a name; nullopt for a name this archbench does not know.
[[nodiscard]] std::optional<ImageVerdict> parse_image_verdict(std::string_view name);

// The build or the driver left a kernel without an image that loads here (missing, ptx-too-new,
// jit-disabled): a finding with a cause and a fix, unlike a library's failure or a crash.
[[nodiscard]] bool lacks_loadable_image(ImageVerdict v);

// `archbench compare`'s image regression: the operator runs worse now than it did, on the same
// device. Runs from SASS or a library < runs only through the JIT < does not run; "unsupported"
// counts as running (a property of the device, which the comparison's key fixes).
[[nodiscard]] bool image_regressed(ImageVerdict before, ImageVerdict now);

}  // namespace archbench
