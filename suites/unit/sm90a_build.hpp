// Whether this build compiled the wgmma kernels (its arch list has 9.0 or 9.0a SASS): what the
// single-target operators' tests expect of their kernel addresses and image verdicts.
#pragma once

#include "harness/arch/compat.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "kernels/common/sm90a_target.hpp"

namespace archbench::testing_support {

inline bool build_has_sm90a() {
  return !arch::single_target_images(build_manifest().targets, kernels::sm90a_target().target).empty();
}

}  // namespace archbench::testing_support
