#include "harness/arch/image_outcome.hpp"

namespace archbench {

// A switch without default: a new outcome cannot be left unranked.
int severity(ImageOutcome o) {
  switch (o) {
    case ImageOutcome::NotProbed:
    case ImageOutcome::NoDeviceCode: return 0;
    case ImageOutcome::Sass:
    case ImageOutcome::Library: return 1;
    case ImageOutcome::PtxJit: return 2;
    case ImageOutcome::Unsupported:
    case ImageOutcome::Partial: return 3;
    case ImageOutcome::JitDisabled: return 4;
    case ImageOutcome::NeedsNewerDriver: return 5;
    case ImageOutcome::Missing:
    case ImageOutcome::LibraryError: return 6;
  }
  return 6;
}

}  // namespace archbench
