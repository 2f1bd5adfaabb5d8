#include "harness/doctor/build_layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/doctor/runtime_layer.hpp"
#include "harness/doctor/text.hpp"

namespace archbench::doctor {

using enum FieldCause;
namespace {

namespace fs = std::filesystem;

std::string device_title(const DeviceInfo& d) {
  return fmt::format("device {} ({}, CC {})", d.index, d.name, d.cc.str());
}

// The engine's fixes speak of archbench's own arch list; for another binary, of its build.
std::string fix_for_other_binary(std::string fix) {
  for (const std::string from : {"ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST)", "ARCHBENCH_ARCH_LIST"}) {
    for (size_t at = fix.find(from); at != std::string::npos; at = fix.find(from, at)) {
      const std::string to = "the arch list it is built with (TORCH_CUDA_ARCH_LIST / -gencode)";
      fix.replace(at, from.size(), to);
      at += to.size();
    }
  }
  return fix;
}

// "SASS sm_80 x12, sm_90 x12 | PTX compute_90 (ISA 9.0) x12" from the entries.
// sm_75 before sm_100: by the arch number, then the full name.
struct ByArchNumber {
  bool operator()(const std::string& a, const std::string& b) const {
    auto number = [](const std::string& s) {
      const auto digits = s.find_first_of("0123456789");
      return digits == std::string::npos ? 0 : std::atoi(s.c_str() + digits);
    };
    return std::make_pair(number(a), a) < std::make_pair(number(b), b);
  }
};

std::string target_summary(const binary::BinaryFile& file) {
  std::map<std::string, size_t, ByArchNumber> sass, ptx;
  for (const auto& e : file.entries()) {
    if (!e.is_image) continue;
    std::string name = e.target.name();
    if (e.target.kind == arch::ImageKind::Ptx && e.target.ptx_isa.known())
      name += " (ISA " + e.target.ptx_isa.str() + ")";
    (e.target.kind == arch::ImageKind::Sass ? sass : ptx)[name]++;
  }
  auto list = [](const std::map<std::string, size_t, ByArchNumber>& m) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : m) parts.push_back(fmt::format("{} x{}", k, v));
    return parts.empty() ? std::string("none") : join(parts, ", ");
  };
  return "SASS " + list(sass) + " | PTX " + list(ptx);
}

std::vector<std::string> cause_details(const KernelTally& t, size_t causes_shown) {
  std::vector<std::string> out;
  size_t shown = 0;
  for (const auto& [cause, names] : t.failing_by_cause) {
    if (++shown > causes_shown) {
      out.push_back(fmt::format("... and {} more cause(s)", t.failing_by_cause.size() - causes_shown));
      break;
    }
    std::vector<std::string> examples;
    for (size_t i = 0; i < std::min<size_t>(names.size(), 3); ++i) {
      examples.push_back(names[i].size() > 90 ? names[i].substr(0, 87) + "..." : names[i]);
    }
    out.push_back(fmt::format("{} kernel(s), e.g. {}: {}", names.size(), join(examples, "; "), cause));
  }
  return out;
}

std::string images_used(const KernelTally& t) {
  std::vector<std::string> parts;
  for (const auto& [label, n] : t.images_used) parts.push_back(fmt::format("{} x{}", label, n));
  return join(parts, ", ");
}

}  // namespace

Finding judge_binary(const std::string& what, BinaryRole role, const KernelTally& t, const arch::DeviceFacts& facts,
                     const std::string& device) {
  const std::string check = role == BinaryRole::OwnExecutable        ? "own-kernels"
                            : role == BinaryRole::DispatchingLibrary ? "library-images"
                                                                     : "check-file";
  const std::string cc = facts.cc.str();
  // The rule inspect and scan use (binary::judge): a library is served by any code for the
  // device; archbench and a checked file, compiled whole for an arch list, need every kernel.
  const ImageOutcome coverage =
      binary::judge(role == BinaryRole::DispatchingLibrary ? binary::BinaryKind::Dispatching : binary::BinaryKind::WholeList, t);
  if (coverage == ImageOutcome::NoDeviceCode) {
    return Finding(Layer::Build, check, Outcome::Pass, what + ": no CUDA kernels (host code only)");
  }
  const size_t sass = t.count(ImageOutcome::Sass), jit = t.count(ImageOutcome::PtxJit);
  const size_t too_new = t.count(ImageOutcome::NeedsNewerDriver), disabled = t.count(ImageOutcome::JitDisabled);
  const size_t failing = t.failing();
  const std::string counts =
      fmt::format("{} of {} kernels have SASS for {}, {} only PTX JIT", sass, t.units, cc, jit);
  const std::string fix = role == BinaryRole::OwnExecutable ? t.first_fix : fix_for_other_binary(t.first_fix);
  const std::vector<std::string> details = [&] {
    std::vector<std::string> d;
    if (!t.images_used.empty()) d.push_back("images used: " + images_used(t));
    for (auto& line : cause_details(t, 5)) d.push_back(std::move(line));
    return d;
  }();

  if (role == BinaryRole::DispatchingLibrary) {
    // A library that dispatches per architecture never launches the kernels of other archs.
    if (coverage == ImageOutcome::Sass) {
      return Finding(Layer::Build, check, Outcome::Pass,
                     fmt::format("{} on {}: {}; the other {} are for other architectures", what, device, counts,
                                 t.units - sass - jit))
          .with_details(details);
    }
    if (coverage == ImageOutcome::PtxJit) {
      return Finding(Layer::Build, check, Outcome::Warn,
                     fmt::format("{} on {}: no SASS for {}, {} kernels only through PTX JIT", what, device, cc, jit),
                     "this release of the library has no native code for the device: every kernel is JIT-compiled at "
                     "first use (minutes for a large library) and depends on the JIT cache",
                     "install a release of the library built for CC " + cc, {PtxJitReliance, NoSassForMajor})
          .with_details(details);
    }
    if (coverage == ImageOutcome::NeedsNewerDriver) {
      return Finding(Layer::Build, check, Outcome::Fail,
                     fmt::format("{} on {}: only PTX newer than this driver can JIT", what, device),
                     "its PTX needs a newer driver (cudaErrorUnsupportedPtxVersion, 222) and it has no SASS for " + cc,
                     fix, {PtxNewerThanDriver})
          .with_details(details);
    }
    return Finding(Layer::Build, check, Outcome::Fail,
                   fmt::format("{} on {}: no kernel can run ({})", what, device, counts),
                   disabled > 0 ? "only PTX fits and CUDA_DISABLE_PTX_JIT is set"
                                : "this release of the library has neither SASS nor usable PTX for CC " + cc,
                   disabled > 0 ? "unset CUDA_DISABLE_PTX_JIT, or install a release built for CC " + cc
                                : "install a release of the library that supports CC " + cc + " (usually a newer one)",
                   disabled > 0 ? FieldCauses{PtxJitReliance} : FieldCauses{NoSassForMajor, ArchDroppedByToolkit})
        .with_details(details);
  }

  if (coverage == ImageOutcome::Sass) {
    return Finding(Layer::Build, check, Outcome::Pass,
                   fmt::format("{} on {}: every kernel has SASS ({} kernels)", what, device, t.units))
        .with_details(details);
  }
  if (coverage == ImageOutcome::PtxJit) {
    return Finding(Layer::Build, check, Outcome::Warn,
                   fmt::format("{} on {}: {} of {} kernels run only through PTX JIT", what, device, jit, t.units),
                   "no SASS for CC " + cc +
                       ": the driver JIT-compiles at first use (a cost at every cold start, and a "
                       "dependence on the JIT cache and on CUDA_DISABLE_PTX_JIT being unset)",
                   role == BinaryRole::OwnExecutable
                       ? "add " + cc + " to ARCHBENCH_ARCH_LIST for SASS"
                       : "rebuild it with " + cc + " in its arch list (TORCH_CUDA_ARCH_LIST / -gencode)",
                   {PtxJitReliance})
        .with_details(details);
  }
  FieldCauses causes{NoSassForMajor};
  if (too_new > 0)
    causes = {PtxNewerThanDriver};
  else if (disabled > 0)
    causes = {PtxJitReliance};
  else if (coverage == ImageOutcome::Partial)
    causes = {ArchOnlyOnSomePaths, HardcodedGencodeList};  // some kernels have the arch, others not: a per-path gap
  const bool none = sass + jit == 0;
  std::string cause = none ? "no kernel has a usable image: every launch fails"
                           : fmt::format("{} kernel(s) have no usable image: launching any of them fails", failing);
  if (too_new > 0) cause += fmt::format(" ({} with PTX newer than this driver, 222)", too_new);
  if (disabled > 0) cause += fmt::format(" ({} need PTX JIT, which CUDA_DISABLE_PTX_JIT forbids, 223)", disabled);
  if (!none && role == BinaryRole::OwnExecutable)
    cause += "; the build covers some kernels (families or dtypes) but not others";
  if (!none && role == BinaryRole::CheckedFile)
    cause += " (harmless only if the code never launches them on this device)";
  return Finding(Layer::Build, check, role == BinaryRole::CheckedFile && !none ? Outcome::Warn : Outcome::Fail,
                 fmt::format("{} on {}: {}; {} without a usable image", what, device, counts, failing), cause, fix,
                 causes)
      .with_details(details);
}

Finding judge_build_targets(const BuildManifest& build, const arch::DeviceFacts& facts, const std::string& device) {
  const arch::Verdict v = arch::predict(arch::ImageSet{build.targets, {0, 0}}, facts);
  const std::string declared = fmt::format("arch list \"{}\" -> {}", build.arch_list, arch::join_names(build.targets));
  switch (v.status) {
    case ImageOutcome::Sass:
      return Finding(Layer::Build, "build-targets", Outcome::Pass,
                     fmt::format("{}: the build has {} ({})", device, v.label(), declared));
    case ImageOutcome::PtxJit:
      return Finding(Layer::Build, "build-targets", Outcome::Warn,
                     fmt::format("{}: the build relies on PTX JIT ({})", device, declared), v.cause, v.fix,
                     {PtxJitReliance});
    case ImageOutcome::NeedsNewerDriver:
      return Finding(Layer::Build, "build-targets", Outcome::Fail,
                     fmt::format("{}: the build's PTX is too new for this driver ({})", device, declared), v.cause,
                     v.fix, {PtxNewerThanDriver});
    case ImageOutcome::JitDisabled:
      return Finding(Layer::Build, "build-targets", Outcome::Fail,
                     fmt::format("{}: the build needs PTX JIT, which is disabled ({})", device, declared), v.cause,
                     v.fix, {PtxJitReliance});
    case ImageOutcome::Missing:
    case ImageOutcome::Unsupported: break;
    // A kernel's prediction is never one of these (an operator's, a file's).
    case ImageOutcome::NotProbed:
    case ImageOutcome::Library:
    case ImageOutcome::LibraryError:
    case ImageOutcome::Partial:
    case ImageOutcome::NoDeviceCode: break;
  }
  // An `a` target of the device's own major that only its suffix keeps off (10.0a on a 10.3): the list has the
  // architecture, in a form that serves one CC alone.
  if (std::ranges::any_of(build.targets, [&](const arch::CodeTarget& t) { return arch::suffix_excludes(t, facts.cc); })) {
    return Finding(Layer::Build, "build-targets", Outcome::Fail,
                   fmt::format("{}: the build's targets for this architecture are arch-specific and exclude this "
                               "device ({})", device, declared),
                   v.cause, v.fix, {ArchSpecificCubin});
  }
  return Finding(Layer::Build, "build-targets", Outcome::Fail,
                 fmt::format("{}: the build does not declare this device's architecture ({})", device, declared),
                 v.cause, v.fix, {NoSassForMajor, ArchDroppedByToolkit});
}

std::vector<std::string> library_files_to_judge(const std::vector<std::string>& mapped_paths) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& p) {
    std::error_code ec;
    const auto real = fs::canonical(p, ec);
    if (seen.insert(ec ? p : real.string()).second) out.push_back(ec ? p : real.string());
  };
  for (const auto& p : mapped_paths) {
    const auto name = cuda_library_name(fs::path(p).filename().string());
    if (!name) continue;
    const bool cublas = name->family == "libcublas" || name->family == "libcublasLt";
    const bool cudnn = name->family == "libcudnn" || name->family.starts_with("libcudnn_");
    if (!cublas && !cudnn) continue;
    add(p);
    if (name->family == "libcudnn") {
      const std::string major = split(name->version, '.').empty() ? "" : split(name->version, '.').front();
      std::error_code ec;
      std::vector<std::string> subs;
      for (fs::directory_iterator it(fs::path(p).parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        const auto sub = cuda_library_name(file);
        if (sub && sub->family.starts_with("libcudnn_") && !major.empty() && file.ends_with(".so." + major)) {
          subs.push_back(it->path().string());
        }
      }
      std::ranges::sort(subs);
      for (const auto& s : subs) add(s);
    }
  }
  return out;
}

void check_build(const BuildInputs& in, Checklist& out) {
  const Environment& env = *in.env;
  const bool usable = env.usable();
  if (!usable) {
    out.add(
        Finding(Layer::Build, "build-targets", Outcome::Skip,
                fmt::format("no usable device to judge the build against (arch list \"{}\" -> {}); `archbench inspect "
                            "--device CC` predicts for a device that is not here",
                            in.build->arch_list, arch::join_names(in.build->targets))));
  } else {
    for (const auto& d : env.devices) out.add(judge_build_targets(*in.build, env.facts(d), device_title(d)));
  }

  // What to judge: archbench itself, cuBLAS and cuDNN each as one library (their files dispatch
  // among each other, so a sub-library without this arch's kernels is no gap), and each --check
  // file; a --check file that is itself a CUDA library is judged as one.
  struct Binary {
    std::string what;
    std::vector<std::string> files;
    BinaryRole role;
    bool checked;  // from --check: unreadable is bad input
  };
  std::vector<Binary> binaries;
  auto file_names = [](const std::vector<std::string>& paths) {
    std::vector<std::string> names;
    for (const auto& p : paths) names.push_back(fs::path(p).filename().string());
    return names;
  };
  if (usable) {
    binaries.push_back({"archbench's own kernels", {in.own_executable}, BinaryRole::OwnExecutable, false});
    std::map<std::string, std::vector<std::string>> libs;
    for (const auto& l : in.libraries) {
      const auto n = cuda_library_name(fs::path(l).filename().string());
      const std::string family = n ? n->family : fs::path(l).filename().string();
      libs[family.starts_with("libcublas") ? "cuBLAS" : family.starts_with("libcudnn") ? "cuDNN" : family].push_back(l);
    }
    for (auto& [name, files] : libs) {
      binaries.push_back({name + " (" + join(file_names(files), ", ") + ")", files, BinaryRole::DispatchingLibrary, false});
    }
  } else if (!in.libraries.empty()) {
    out.add(Finding(Layer::Build, "library-images", Outcome::Skip,
                    "the loaded cuBLAS/cuDNN libraries are not judged without a device: " + first_few(file_names(in.libraries), 4)));
  }
  for (const auto& f : in.check_files) {
    const bool library = cuda_library_name(fs::path(f).filename().string()).has_value();
    binaries.push_back({f, {f}, library ? BinaryRole::DispatchingLibrary : BinaryRole::CheckedFile, true});
  }

  for (const auto& b : binaries) {
    std::vector<binary::KernelImages> kernels;
    std::vector<std::string> targets;
    for (const auto& path : b.files) {
      try {
        const auto file = binary::BinaryFile::open(path);
        auto k = file.kernels();
        targets.push_back((b.files.size() > 1 ? fs::path(path).filename().string() + ": " : std::string()) + target_summary(file));
        kernels.insert(kernels.end(), std::make_move_iterator(k.begin()), std::make_move_iterator(k.end()));
      } catch (const std::exception& e) {
        Finding f(Layer::Build, b.checked ? "check-file" : "library-images", b.checked ? Outcome::Fail : Outcome::Warn,
                  "cannot read " + path + ": " + e.what(),
                  b.checked ? "the file is missing, unreadable, or not an ELF / fatbin / cubin"
                            : "the library's device code could not be read",
                  b.checked ? "pass an ELF executable, shared library, object, fatbin or cubin"
                            : "run `archbench inspect " + path + "` for details");
        f.bad_input = b.checked;
        out.add(std::move(f));
      }
    }
    if (targets.empty()) continue;  // nothing could be read: already reported
    if (!usable) {
      out.add(Finding(Layer::Build, "check-file", Outcome::Skip,
                      fmt::format("{}: {} kernels ({}); no usable device to judge them against (archbench inspect "
                                  "--device CC predicts without one)",
                                  b.what, kernels.size(), join(targets, "; "))));
      continue;
    }
    for (const auto& d : env.devices) {
      const auto facts = env.facts(d);
      Finding f = judge_binary(b.what, b.role, tally_kernels(kernels, facts), facts, device_title(d));
      if (b.checked) f.check = "check-file";
      for (auto it = targets.rbegin(); it != targets.rend(); ++it) f.details.insert(f.details.begin(), "targets: " + *it);
      out.add(std::move(f));
    }
  }
}

}  // namespace archbench::doctor
