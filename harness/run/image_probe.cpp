#include "harness/run/image_probe.hpp"

#include <string>
#include <cuda_runtime.h>

#include "harness/util/cublas_check.hpp"

namespace archbench {
namespace {

// Worse verdicts first: the operator reports its worst kernel.
int severity(arch::ImageStatus s) {
  switch (s) {
    case arch::ImageStatus::Sass: return 0;
    case arch::ImageStatus::PtxJit: return 1;
    case arch::ImageStatus::Unsupported: return 2;
    case arch::ImageStatus::JitDisabled: return 3;
    case arch::ImageStatus::PtxTooNew: return 4;
    case arch::ImageStatus::Missing: return 5;
  }
  return 5;
}

arch::RuntimeProbe probe_kernel(const void* host_stub) {
  cudaFuncAttributes attr{};
  const cudaError_t e = cudaFuncGetAttributes(&attr, host_stub);
  arch::RuntimeProbe p;
  if (e != cudaSuccess) {
    cudaGetLastError();  // 209/222/223 are not sticky; clear them so the next call is clean
    p.error = static_cast<int>(e);
    p.error_name = cudaGetErrorName(e);
    return p;
  }
  p.binary_version = attr.binaryVersion;
  p.ptx_version = attr.ptxVersion;
  return p;
}

}  // namespace

arch::Verdict predict_operator_kernel(const Operator& op, const BuildManifest& build, const arch::DeviceFacts& device) {
  return arch::predict(arch::ImageSet{build.targets, op.spec().min_cc}, device);
}

ImageResult probe_image(const Operator& op, const BuildManifest& build, const arch::DeviceFacts& device) {
  ImageResult r;
  if (device.cc < op.spec().min_cc) {
    r.status = "unsupported";
    r.label = "unsupported";
    r.cause = "unsupported on this device (needs " + op.spec().min_cc.str() + ", device is " + device.cc.str() + ")";
    return r;
  }
  if (op.kernels().empty()) {  // a library twin: the library's images are its own business
    r.status = "library";
    r.label = cublas_runtime_version();
    return r;
  }
  const arch::ImageSet images{build.targets, op.spec().min_cc};
  const arch::Verdict predicted = arch::predict(images, device);
  int worst = -1;
  for (const auto& k : op.kernels()) {
    const arch::RuntimeProbe probe = probe_kernel(k.host_stub);
    const arch::ReconciledVerdict v = arch::reconcile(predicted, probe, images);
    r.kernels.push_back({k.name, v.verdict.label(), probe.error, probe.binary_version, probe.ptx_version});
    if (!v.agrees) {
      r.agrees = false;
      r.disagreement += (r.disagreement.empty() ? "" : "; ") + k.name + ": " + v.disagreement;
    }
    if (severity(v.verdict.status) > worst) {
      worst = severity(v.verdict.status);
      r.status = std::string(arch::status_name(v.verdict.status));
      r.label = v.verdict.label();
      r.cause = v.verdict.cause;
      r.fix = v.verdict.fix;
    }
  }
  return r;
}

}  // namespace archbench
