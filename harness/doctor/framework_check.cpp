#include "harness/doctor/framework_check.hpp"

#include <fmt/format.h>

namespace archbench::doctor {

using framework::ProbeStatus;

void check_framework(const FrameworkCheckInput& in, Checklist& out) {
  const auto add = [&](Outcome o, std::string what, std::string why = {}, std::string fix = {}) {
    out.add(Finding(Layer::Workload, "framework", o, std::move(what), std::move(why), std::move(fix)));
  };
  if (!in.not_run.empty()) {
    add(Outcome::Skip, fmt::format("{}: the framework probe gave no answer: {}", in.python, in.not_run));
    return;
  }
  const auto& a = in.answer;
  switch (a.status) {
    case ProbeStatus::Ok: break;
    case ProbeStatus::NoTorch:
    case ProbeStatus::TorchTooOld:
      add(Outcome::Skip, fmt::format("{}: {} (the framework check needs torch 2.4+)", in.python, a.reason));
      return;
    case ProbeStatus::TorchWithoutCuda:
      add(Outcome::Warn, fmt::format("{}: {}", in.python, a.reason), "this torch cannot use the GPU: its models run on the CPU",
          "install a CUDA build of torch for this driver (pip install torch --index-url https://download.pytorch.org/whl/cu130)");
      return;
    case ProbeStatus::NoGpu:
      add(Outcome::Fail, fmt::format("{}: torch {} sees no usable GPU: {}", in.python, a.torch_version, a.reason),
          "archbench sees the device, torch does not: its CUDA build may need a newer driver, or CUDA_VISIBLE_DEVICES "
          "differs in that environment",
          "archbench scan --python " + in.python + " names the files that need a newer driver");
      return;
    case ProbeStatus::BadRequest:
    case ProbeStatus::ProbeError:
      add(Outcome::Skip, fmt::format("{}: the framework probe failed: {}", in.python, a.reason));
      return;
  }
  std::vector<std::string> failing;
  std::string first_fix;
  for (size_t i = 0; i < a.ops.size(); ++i) {
    for (const auto& f : in.verdicts[i].findings) {
      if (!f.fails()) continue;
      failing.push_back(fmt::format("{} {}: {}", a.ops[i].id, name_of(framework::kFindingKinds, f.kind), f.what));
      if (first_fix.empty()) first_fix = f.fix;
      break;
    }
  }
  const std::string who = fmt::format("torch {} (CUDA {}) in {}", a.torch_version, a.torch_cuda, in.python);
  if (failing.empty()) {
    add(Outcome::Pass, fmt::format("{}: {} framework op(s) ran and are right (quick tier: backends, images, results)", who,
                                   a.ops.size()));
    return;
  }
  out.add(Finding(Layer::Workload, "framework", Outcome::Fail,
                  fmt::format("{}: {} of {} framework op(s) fail", who, failing.size(), a.ops.size()),
                  "the user's framework, not archbench's kernels: these ops of it fail on this device",
                  (first_fix.empty() ? std::string() : first_fix + "; ") + "archbench framework --python " + in.python +
                      " for the whole table")
              .with_details(std::move(failing)));
}

}  // namespace archbench::doctor
