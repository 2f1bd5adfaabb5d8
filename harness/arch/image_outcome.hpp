// One vocabulary for "which image runs here, or why none does", whatever is judged: a kernel (the
// compatibility engine's predict, the image probe), an operator (the run's image verdict), a file or a
// package (inspect, scan) and the doctor's findings. Each outcome has one name, in text and JSON alike.
#pragma once

#include <array>
#include <string_view>

#include "harness/util/enum_names.hpp"

namespace archbench {

enum class ImageOutcome {
  NotProbed,         // not judged: a worker ended before probing the operator
  Sass,              // SASS for the device (a file or package: for every unit it has)
  PtxJit,            // it loads, some of it only through the driver's JIT of its PTX
  Library,           // an operator that is a library twin: the library's images are its own business
  Unsupported,       // the device is below what the code needs, or it is arch-specific code for another one
  Missing,           // no image for the device: cudaErrorNoKernelImageForDevice (209)
  NeedsNewerDriver,  // only PTX newer than the driver can JIT (222), or a runtime newer than the driver
  JitDisabled,       // only PTX, and CUDA_DISABLE_PTX_JIT forbids the JIT (223)
  LibraryError,      // the library twin refused the problem or failed
  Partial,           // a file or package: some of its units have an image, others none
  NoDeviceCode,      // a file or package with no device code to judge
};

// The names in text and JSON.
inline constexpr auto kImageOutcomes = enum_names<ImageOutcome>({
    {ImageOutcome::NotProbed, ""},
    {ImageOutcome::Sass, "sass"},
    {ImageOutcome::PtxJit, "ptx-jit"},
    {ImageOutcome::Library, "library"},
    {ImageOutcome::Unsupported, "unsupported"},
    {ImageOutcome::Missing, "missing"},
    {ImageOutcome::NeedsNewerDriver, "needs-newer-driver"},
    {ImageOutcome::JitDisabled, "jit-disabled"},
    {ImageOutcome::LibraryError, "library-error"},
    {ImageOutcome::Partial, "partial"},
    {ImageOutcome::NoDeviceCode, "no-device-code"},
});

// Spellings of stored files written before the vocabulary was one (2026-12-06): the run JSON's
// "ptx-too-new", scan's "native" and "no-image". Read, never written.
inline constexpr std::array<EnumName<ImageOutcome>, 3> kImageOutcomeAliases{{
    {ImageOutcome::NeedsNewerDriver, "ptx-too-new"},
    {ImageOutcome::Sass, "native"},
    {ImageOutcome::Missing, "no-image"},
}};

[[nodiscard]] constexpr std::string_view outcome_name(ImageOutcome o) { return name_of(kImageOutcomes, o); }

// Worst last: nothing judged, SASS or a library's own images, the JIT, unsupported or partly served,
// the JIT forbidden, a driver too old, no image at all. A kernel's worst image is its operator's; a
// package's worst file is its verdict.
[[nodiscard]] int severity(ImageOutcome o);

}  // namespace archbench
