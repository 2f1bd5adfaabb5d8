// Whether this build compiled the wgmma kernels (its arch list has 9.0 or 9.0a SASS): what the
// single-target operators' tests expect of their kernel addresses and image verdicts.
#pragma once

#include <gtest/gtest.h>

#include "harness/arch/compat.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/ops/operator.hpp"
#include "harness/run/image_probe.hpp"
#include "kernels/common/sm90a_target.hpp"

namespace archbench::testing_support {

inline bool build_has_sm90a() {
  return !arch::single_target_images(build_manifest().targets, kernels::sm90a_target().target).empty();
}

// An sm_90a operator in a build without 9.0 or 9.0a: the probe answers from the build alone
// (nothing to load), "missing" on a 9.0 device, which a list with 9.0 would serve, with the cause
// and the fix; "unsupported" on the other devices. Returns the probe on the 9.0 device.
inline ImageResult expect_missing_without_sm90a(const Operator& op) {
  const ImageResult r = probe_image(op, build_manifest(), arch::DeviceFacts{{9, 0}, {13000}, false, false});
  EXPECT_EQ(r.status, ImageOutcome::Missing) << op.id();
  EXPECT_EQ(r.cause,
            "this build has no sm_90a target: wgmma code is compiled only for sm_90a, when the arch list has 9.0 "
            "or 9.0a");
  EXPECT_EQ(r.fix, "add 9.0 or 9.0a to the arch list (ARCHBENCH_ARCH_LIST or TORCH_CUDA_ARCH_LIST)");
  for (arch::ComputeCapability cc : {arch::ComputeCapability{8, 0}, arch::ComputeCapability{10, 0},
                                     arch::ComputeCapability{12, 0}}) {
    EXPECT_EQ(probe_image(op, build_manifest(), arch::DeviceFacts{cc, {13000}, false, false}).status,
              ImageOutcome::Unsupported)
        << op.id() << " on " << cc.str();
  }
  return r;
}

}  // namespace archbench::testing_support
