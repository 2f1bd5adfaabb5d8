// The image probe: for every kernel an operator launches, the static prediction from the build
// manifest and the runtime's answer (cudaFuncGetAttributes, no launch), reconciled.
#pragma once

#include "harness/arch/compat.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/ops/operator.hpp"
#include "harness/report/result.hpp"

namespace archbench {

// Static prediction only (no CUDA call): what the build manifest implies for this device.
[[nodiscard]] arch::Verdict predict_operator_kernel(const Operator& op, const BuildManifest& build,
                                                    const arch::DeviceFacts& device);

// Static prediction confirmed by the runtime on the current device.
[[nodiscard]] ImageResult probe_image(const Operator& op, const BuildManifest& build, const arch::DeviceFacts& device);

}  // namespace archbench
