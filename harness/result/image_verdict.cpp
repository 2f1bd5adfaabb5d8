#include "harness/result/image_verdict.hpp"

namespace archbench {
namespace {

// How well the operator runs: 0 from SASS or a library's own images, 1 only through the JIT,
// 2 not at all. A switch without default, so a new verdict cannot be left unranked.
int run_rank(ImageOutcome v) {
  switch (v) {
    case ImageOutcome::Sass:
    case ImageOutcome::Library:
    case ImageOutcome::Unsupported: return 0;
    case ImageOutcome::PtxJit: return 1;
    case ImageOutcome::NotProbed:
    case ImageOutcome::Missing:
    case ImageOutcome::NeedsNewerDriver:
    case ImageOutcome::JitDisabled:
    case ImageOutcome::LibraryError:
    case ImageOutcome::Partial:        // a file's verdicts, never an operator's
    case ImageOutcome::NoDeviceCode: return 2;
  }
  return 2;
}

}  // namespace

bool lacks_loadable_image(ImageOutcome v) {
  return v == ImageOutcome::Missing || v == ImageOutcome::NeedsNewerDriver || v == ImageOutcome::JitDisabled;
}

bool image_regressed(ImageOutcome before, ImageOutcome now) { return run_rank(now) > run_rank(before); }

}  // namespace archbench
