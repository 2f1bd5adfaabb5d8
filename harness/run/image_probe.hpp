// The image probe: for every kernel an operator launches, the static prediction from the build
// manifest and the runtime's answer (cudaFuncGetAttributes, no launch), reconciled.
#pragma once

#include "harness/arch/compat.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/ops/operator.hpp"
#include "harness/result/result.hpp"

namespace archbench {

// Static prediction from the executable's own fatbin (cross-checked against the manifest),
// confirmed by the runtime on the current device.
[[nodiscard]] ImageResult probe_image(const Operator& op, const BuildManifest& build, const arch::DeviceFacts& device);

}  // namespace archbench
