#include "harness/result/image_verdict.hpp"

namespace archbench {
namespace {

// How well the operator runs: 0 from SASS or a library's own images, 1 only through the JIT,
// 2 not at all. A switch without default, so a new verdict cannot be left unranked.
int run_rank(ImageVerdict v) {
  switch (v) {
    case ImageVerdict::Sass:
    case ImageVerdict::Library:
    case ImageVerdict::Unsupported: return 0;
    case ImageVerdict::PtxJit: return 1;
    case ImageVerdict::NotProbed:
    case ImageVerdict::Missing:
    case ImageVerdict::PtxTooNew:
    case ImageVerdict::JitDisabled:
    case ImageVerdict::LibraryError: return 2;
  }
  return 2;
}

}  // namespace

bool lacks_loadable_image(ImageVerdict v) {
  return v == ImageVerdict::Missing || v == ImageVerdict::PtxTooNew || v == ImageVerdict::JitDisabled;
}

bool image_regressed(ImageVerdict before, ImageVerdict now) { return run_rank(now) > run_rank(before); }

}  // namespace archbench
