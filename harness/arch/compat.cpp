#include "harness/arch/compat.hpp"

#include <string>
#include <utility>
#include <algorithm>
#include <array>
#include <optional>

namespace archbench::arch {
namespace {

constexpr std::array kTegra{53, 62, 72, 87, 101, 110};

// Family table: `compute_XYf` / `sm_XYf` -> devices of that family.
struct Family {
  int arch;
  std::array<int, 3> members;
};
constexpr std::array kFamilies{
    Family{100, {100, 103, 0}}, Family{103, {103, 0, 0}}, Family{110, {110, 0, 0}},
    Family{120, {120, 121, 0}}, Family{121, {121, 0, 0}},
};

std::string cc_str(int number) { return ComputeCapability::from_number(number).str(); }

std::string list_or_none(const std::vector<CodeTarget>& ts) { return ts.empty() ? "none" : join_names(ts, ", "); }

// "an 8.9", "a 9.0": the article as the number is read.
std::string a_cc(ComputeCapability cc) {
  return (cc.major == 8 || cc.major == 11 || cc.major == 18 ? "an " : "a ") + cc.str();
}

// "10.0, 10.3": the devices of an `f` target's family.
std::string members_str(int family_arch) {
  std::string m;
  for (int x : family_members(family_arch)) m += (m.empty() ? "" : ", ") + cc_str(x);
  return m;
}

// The devices a suffixed target serves, as the rule says it: "exactly 9.0", "its family (10.0, 10.3)".
std::string suffixed_reach(const CodeTarget& t) {
  return t.suffix == Suffix::ArchSpecific ? "exactly " + cc_str(t.arch) : "its family (" + members_str(t.arch) + ")";
}

// Thor has two names: CC 10.1 (sm_101) under CUDA 12 and 11.0 (sm_110) from CUDA 13, whose release
// notes renumbered it; the driver decides which the device reports, and each loads only its own code.
std::string thor_rename_reason(int target) {
  return target == kThorBeforeCuda13.number()
             ? "sm_101 is Thor's name before CUDA 13: under a CUDA 13 driver Thor is 11.0 and loads only sm_110 code "
               "(rebuild with a CUDA 13 toolkit for 11.0)"
             : "sm_110 is Thor's name from CUDA 13: under a CUDA 12 driver Thor reports 10.1 and loads only sm_101 code "
               "(a CUDA 13 driver, JetPack 7, makes it 11.0)";
}

// Why no SASS image of `sass` fits the device, one reason per image kind.
std::string why_no_sass(const std::vector<CodeTarget>& sass, ComputeCapability dev) {
  const int d = dev.number();
  if (sass.empty()) return "no SASS";
  std::vector<std::string> reasons;
  for (const auto& t : sass) {
    std::string r;
    const int old_thor = kThorBeforeCuda13.number(), new_thor = kThorFromCuda13.number();
    if ((t.arch == old_thor && d == new_thor) || (t.arch == new_thor && d == old_thor)) r = thor_rename_reason(t.arch);
    else if (t.suffix != Suffix::None) r = t.name() + " runs only on " + suffixed_reach(t);
    else if (is_tegra(t.arch) || is_tegra(d)) r = t.name() + " is not binary compatible (Tegra needs an exact match)";
    else if (t.arch / 10 != d / 10) r = t.name() + " is another major (SASS runs only within its major)";
    else r = t.name() + " needs " + cc_str(t.arch) + " or newer within " + std::to_string(t.arch / 10) + ".x";
    reasons.push_back(r);
  }
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

// Why no PTX image of `ptx` can be JIT-compiled for the device.
std::string why_no_ptx(const std::vector<CodeTarget>& ptx, ComputeCapability dev) {
  if (ptx.empty()) return "no PTX to JIT";
  std::string out = "PTX " + join_names(ptx, ", ") + " cannot target " + dev.str();
  std::string reach;
  for (const auto& t : ptx) {
    if (t.suffix == Suffix::None) continue;
    reach += (reach.empty() ? "" : "; ") + t.name() + " JIT-compiles only for " + suffixed_reach(t);
  }
  return reach.empty() ? out : out + " (" + reach + ")";
}

// The newest SASS target at or below the device, of the kind `suffixed` says, whose arch PTX could serve.
const CodeTarget* newest_sass_below(const std::vector<CodeTarget>& usable, ComputeCapability dev, bool suffixed) {
  const CodeTarget* best = nullptr;
  for (const auto& t : usable) {
    if (t.kind == ImageKind::Sass && (t.suffix != Suffix::None) == suffixed && t.arch <= dev.number() &&
        !is_tegra(t.arch) && (best == nullptr || t.arch > best->arch)) {
      best = &t;
    }
  }
  return best;
}

std::string fix_for(const std::vector<CodeTarget>& usable, ComputeCapability dev, bool suggest_ptx = true) {
  std::string fix = "add " + dev.str() + " to ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST) for SASS on this device";
  // An `a` target whose family holds the device: the `f` target of the same arch serves both (a 10.0a list drops
  // 10.3, vllm-project/vllm #56548).
  for (const auto& t : usable) {
    if (t.kind == ImageKind::Sass && t.suffix == Suffix::ArchSpecific && t.arch != dev.number() &&
        in_family(t.arch, dev.number())) {
      const std::string cc = t.cc().str();
      fix += ", or build " + cc + "f instead of " + cc + "a (it runs on " + members_str(t.arch) +
             ") if the code needs no " + cc + "a-only feature";
      break;
    }
  }
  if (!suggest_ptx) return fix;
  // +PTX on the newest SASS entry that PTX from it could serve; only a plain target's PTX JIT-compiles for
  // other GPUs, so an `a` or `f` entry needs its plain twin.
  if (const CodeTarget* plain = newest_sass_below(usable, dev, false)) {
    fix += ", or use " + plain->cc().str() + "+PTX so the driver can JIT it";
  } else if (const CodeTarget* suffixed = newest_sass_below(usable, dev, true)) {
    fix += ", or add " + suffixed->cc().str() + "+PTX so the driver can JIT it (plain PTX: " +
           suffixed->virtual_name() + " would JIT only for " + suffixed_reach(*suffixed) + ")";
  }
  return fix;
}

}  // namespace

std::vector<CodeTarget> single_target_images(const std::vector<CodeTarget>& build, const CodeTarget& only) {
  for (const auto& t : build) {
    if (t.kind == ImageKind::Sass && t.arch == only.arch && (t.suffix == Suffix::None || t.suffix == only.suffix)) {
      return {only};
    }
  }
  return {};
}

bool is_tegra(int cc_number) { return std::ranges::find(kTegra, cc_number) != kTegra.end(); }

std::vector<int> family_members(int family_arch) {
  for (const auto& f : kFamilies) {
    if (f.arch != family_arch) continue;
    std::vector<int> out;
    for (int m : f.members) if (m != 0) out.push_back(m);
    return out;
  }
  return {family_arch};  // an unknown family holds at least its own arch
}

bool in_family(int family_arch, int device_arch) {
  auto m = family_members(family_arch);
  return std::ranges::find(m, device_arch) != m.end();
}

namespace {

// The rule SASS and PTX share for suffixed targets: an arch-specific one ('a') serves only its own
// arch, a family-specific one ('f') the members of its family. nullopt for a plain target, whose
// rule differs between the two.
std::optional<bool> suffixed_target_serves(const CodeTarget& t, int device_arch) {
  switch (t.suffix) {
    case Suffix::ArchSpecific: return t.arch == device_arch;
    case Suffix::FamilySpecific: return in_family(t.arch, device_arch);
    case Suffix::None: break;
  }
  return std::nullopt;
}

}  // namespace

bool sass_runs_on(const CodeTarget& t, ComputeCapability device) {
  const int d = device.number();
  if (const auto serves = suffixed_target_serves(t, d)) return *serves;
  if (is_tegra(t.arch) || is_tegra(d)) return t.arch == d;
  return t.arch / 10 == d / 10 && d >= t.arch;
}

bool suffix_excludes(const CodeTarget& t, ComputeCapability device) {
  if (t.kind != ImageKind::Sass || t.suffix == Suffix::None || sass_runs_on(t, device)) return false;
  CodeTarget plain = t;
  plain.suffix = Suffix::None;
  return sass_runs_on(plain, device);
}

bool ptx_can_target(const CodeTarget& t, ComputeCapability device) {
  const int d = device.number();
  if (const auto serves = suffixed_target_serves(t, d)) return *serves;
  return d >= t.arch;
}

int expected_cuda_error(ImageOutcome s) {
  switch (s) {
    case ImageOutcome::Missing: return 209;      // cudaErrorNoKernelImageForDevice
    case ImageOutcome::NeedsNewerDriver: return 222;    // cudaErrorUnsupportedPtxVersion
    case ImageOutcome::JitDisabled: return 223;  // cudaErrorJitCompilationDisabled
    default: return 0;
  }
}

std::string Verdict::label() const {
  switch (status) {
    case ImageOutcome::Sass:
      if (!image) return "sass";
      return "sass " + image->name() + (image->virtual_arch != image->arch ? " (from " + image->virtual_name() + ")" : "");
    case ImageOutcome::PtxJit: return image ? "ptx-jit from " + image->name() : "ptx-jit";
    default: return std::string(outcome_name(status));
  }
}

std::string unsupported_cause(ComputeCapability needs, std::string_view why, ComputeCapability device) {
  return "unsupported on this device (needs " + needs.str() + (why.empty() ? "" : " for " + std::string(why)) +
         ", device is " + device.str() + ")";
}

Verdict predict(const ImageSet& images, const DeviceFacts& device) {
  Verdict v;
  const ComputeCapability dev = device.cc;
  if (dev < images.needs) {
    v.status = ImageOutcome::Unsupported;
    v.cause = unsupported_cause(images.needs, {}, dev);
    return v;
  }
  if (images.only && dev != images.only->target.cc()) {
    const CodeTarget& t = images.only->target;
    v.status = ImageOutcome::Unsupported;
    v.cause = "unsupported on this device: " + t.name() + " code runs only on " + t.cc().str() + " (" +
              images.only->why + "), device is " + dev.str();
    return v;
  }
  if (images.only && images.targets.empty()) {
    const CodeTarget& t = images.only->target;
    v.status = ImageOutcome::Missing;
    v.cause = "this build has no " + t.name() + " target: " + images.only->why;
    v.fix = "add " + t.cc().str() + " or " + t.cc().str() + std::string(suffix_letter(t.suffix)) +
            " to the arch list (ARCHBENCH_ARCH_LIST or TORCH_CUDA_ARCH_LIST)";
    return v;
  }
  // A kernel defined in several containers repeats its targets; judge each distinct one once.
  std::vector<CodeTarget> distinct = images.targets;
  std::ranges::sort(distinct);
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<CodeTarget> usable, stubs, sass, ptx;
  for (const auto& t : distinct) {
    (ComputeCapability::from_number(t.virtual_arch) < images.needs ? stubs : usable).push_back(t);
  }
  for (const auto& t : usable) (t.kind == ImageKind::Sass ? sass : ptx).push_back(t);

  // The driver prefers any compatible SASS over any PTX, then the nearest arch (docs/reference/compat.md,
  // "Summary: which image a kernel gets").
  if (!device.force_ptx_jit) {
    const CodeTarget* best = nullptr;
    for (const auto& t : sass) {
      if (sass_runs_on(t, dev) && (best == nullptr || t.arch > best->arch)) best = &t;
    }
    if (best != nullptr) {
      v.status = ImageOutcome::Sass;
      v.image = *best;
      return v;
    }
  }
  const CodeTarget* jit = nullptr;
  for (const auto& t : ptx) {
    if (ptx_can_target(t, dev) && (jit == nullptr || t.arch > jit->arch)) jit = &t;
  }
  std::vector<CodeTarget> all_sass, all_ptx;
  for (const auto& t : distinct) (t.kind == ImageKind::Sass ? all_sass : all_ptx).push_back(t);
  const std::string built = "built for SASS " + list_or_none(all_sass) + " and PTX " + list_or_none(all_ptx);
  std::string sass_reason = device.force_ptx_jit ? "CUDA_FORCE_PTX_JIT is set, so SASS is ignored" : why_no_sass(sass, dev);
  std::string stub_note;
  if (!stubs.empty()) {
    stub_note = "; " + join_names(stubs, ", ") + " lack the " + images.needs.str() +
                " features this kernel needs (they hold a stub)";
  }

  if (jit == nullptr) {
    v.status = ImageOutcome::Missing;
    const std::string ptx_reason = why_no_ptx(ptx, dev);
    v.cause = built + "; " + a_cc(dev) + " device needs SASS " + std::to_string(dev.major) + ".x (<= " +
              dev.str() + ") or PTX <= compute_" + std::to_string(dev.number()) + ": " + sass_reason + "; " +
              ptx_reason + stub_note;
    v.fix = device.force_ptx_jit ? "unset CUDA_FORCE_PTX_JIT, or add +PTX to an entry <= " + dev.str()
                                 : fix_for(usable, dev);
    return v;
  }
  v.image = *jit;
  if (device.jit_disabled) {
    v.status = ImageOutcome::JitDisabled;
    v.cause = "only PTX " + jit->name() + " fits (" + sass_reason + ") and CUDA_DISABLE_PTX_JIT is set";
    v.fix = "unset CUDA_DISABLE_PTX_JIT, or " + fix_for(usable, dev);
    return v;
  }
  if (auto max_isa = ptx_isa_of_cuda(device.driver); max_isa && jit->ptx_isa.known() && jit->ptx_isa > *max_isa) {
    v.status = ImageOutcome::NeedsNewerDriver;
    auto need = driver_needed_for(jit->ptx_isa);
    v.cause = "PTX " + jit->name() + " is ISA " + jit->ptx_isa.str() + ", newer than the " + max_isa->str() +
              " this driver (CUDA " + device.driver.str() + ") can JIT";
    // More PTX from the same toolkit would be just as new: only SASS or a newer driver helps.
    v.fix = (need ? "update the driver to " + need->branch + " (CUDA " + need->cuda.str() + ") or newer, or " : "") +
            fix_for(usable, dev, false);
    return v;
  }
  v.status = ImageOutcome::PtxJit;
  v.cause = "no SASS fits (" + sass_reason + "); the driver JIT-compiles " + jit->name() + " at first use";
  v.fix = "add " + dev.str() + " to ARCHBENCH_ARCH_LIST for SASS (no JIT cost, no JIT cache dependence)";
  return v;
}

ReconciledVerdict reconcile(const Verdict& predicted, const RuntimeProbe& probe, const ImageSet& images) {
  ReconciledVerdict r{predicted, true, {}};
  if (predicted.status == ImageOutcome::Unsupported) return r;  // never probed on such a device

  auto disagree = [&](Verdict runtime, const std::string& what) {
    r.agrees = false;
    r.disagreement = "runtime: " + what + "; static prediction: " + predicted.label();
    r.verdict = std::move(runtime);
  };

  if (probe.error != 0) {
    Verdict runtime;
    runtime.status = probe.error == 222 ? ImageOutcome::NeedsNewerDriver
                   : probe.error == 223 ? ImageOutcome::JitDisabled
                                        : ImageOutcome::Missing;
    runtime.cause = "cudaFuncGetAttributes returned " + probe.error_name + " (" + std::to_string(probe.error) + ")";
    if (probe.error == expected_cuda_error(predicted.status)) return r;
    disagree(runtime, runtime.cause);
    return r;
  }
  const std::string loaded = "loaded SASS " + std::to_string(probe.binary_version) + " from compute_" +
                             std::to_string(probe.ptx_version);
  if (predicted.status == ImageOutcome::JitDisabled && predicted.image && probe.ptx_version == predicted.image->virtual_arch) {
    // CUDA_DISABLE_PTX_JIT stops new JIT compilation, not the use of what the JIT cache holds from
    // an earlier run: the predicted PTX did load, compiled for this device (docs/arch-lists-and-verdicts.md).
    r.verdict.status = ImageOutcome::PtxJit;
    r.verdict.cause = predicted.cause + ", but the JIT cache held this kernel, compiled by an earlier run; with a "
                      "cold cache (another machine, CUDA_CACHE_DISABLE=1) it fails with " +
                      "cudaErrorJitCompilationDisabled (223)";
    return r;
  }
  if (!predicted.loads()) {
    Verdict runtime;
    runtime.status = ImageOutcome::PtxJit;  // something loaded; the binary holds more than the manifest says
    runtime.image = CodeTarget{ImageKind::Ptx, probe.ptx_version, Suffix::None, probe.ptx_version, {}};
    runtime.cause = loaded;
    disagree(runtime, loaded);
    return r;
  }
  // A stub means the build holds an image the manifest did not predict.
  if (ComputeCapability::from_number(probe.ptx_version) < images.needs) {
    Verdict runtime;
    runtime.status = ImageOutcome::Missing;
    runtime.cause = loaded + ", a stub without the " + images.needs.str() + " features";
    disagree(runtime, runtime.cause);
    return r;
  }
  if (probe.ptx_version != predicted.image->virtual_arch) disagree(predicted, loaded);
  return r;
}

}  // namespace archbench::arch
