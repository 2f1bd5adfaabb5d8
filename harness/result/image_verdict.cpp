#include "harness/result/image_verdict.hpp"

#include "harness/util/enum_names.hpp"

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

std::string_view image_verdict_name(ImageVerdict v) {
  switch (v) {
    case ImageVerdict::NotProbed: return "";
    case ImageVerdict::Sass: return "sass";
    case ImageVerdict::PtxJit: return "ptx-jit";
    case ImageVerdict::Library: return "library";
    case ImageVerdict::Unsupported: return "unsupported";
    case ImageVerdict::Missing: return "missing";
    case ImageVerdict::PtxTooNew: return "ptx-too-new";
    case ImageVerdict::JitDisabled: return "jit-disabled";
    case ImageVerdict::LibraryError: return "library-error";
  }
  return "?";
}

std::optional<ImageVerdict> parse_image_verdict(std::string_view name) {
  return parse_by_name(kImageVerdicts, image_verdict_name, name);
}

bool lacks_loadable_image(ImageVerdict v) {
  return v == ImageVerdict::Missing || v == ImageVerdict::PtxTooNew || v == ImageVerdict::JitDisabled;
}

bool image_regressed(ImageVerdict before, ImageVerdict now) { return run_rank(now) > run_rank(before); }

}  // namespace archbench
