#include "harness/stack/judgement.hpp"
#include "harness/stack/variant_family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <filesystem>
#include <set>
#include <fmt/ranges.h>
#include <regex>

namespace archbench::stack {
namespace {


// "nvidia-cudnn-cu13", "nvidia_cublas": NVIDIA's packaged CUDA libraries.
bool is_nvidia_library_package(const std::string& name) {
  return name.starts_with("nvidia-") || name.starts_with("nvidia_") || name == "cuda-toolkit";
}

// Marks the CUDA variants of `p` that do not load here as not counted (variant_family.hpp) and
// says which loads, with a note per family. Returns the cause when the variant the loader would
// pick is not shipped: then nothing of the family loads.
std::optional<std::string> count_loading_variants(const Package& p, const Inventory& inv, const AdviceContext& ctx,
                                                  PackageJudgement& pj) {
  std::optional<std::string> missing;
  const LoaderHint hint = loader_hint(p.name);
  const char* override_value = nullptr;
  if (hint.override_variable != nullptr) {
    if (const auto it = ctx.loader_overrides.find(hint.override_variable); it != ctx.loader_overrides.end()) {
      override_value = it->second.c_str();
    }
  }
  const auto selector = variant_selector(hint, inv, override_value);
  for (const auto& family : find_variant_families(p, inv)) {
    auto judged = [&](const CudaVariant& v) -> FileJudgement& {
      return *std::ranges::find(pj.files, v.file, &FileJudgement::file);
    };
    std::optional<size_t> loads;
    std::string why;
    if (selector) {
      const VariantChoice choice = choose_variant(family, hint, *selector);
      loads = choice.chosen;
      why = choice.why;
      if (!loads) missing = fmt::format("{}: {}; the package cannot load a library", family.pattern, choice.why);
    } else {
      // Nothing here says which loads (a wheel alone): judge by the best, newest first among equals.
      for (size_t i = family.variants.size(); i-- > 0;) {
        if (!loads || severity(judged(family.variants[i]).coverage) < severity(judged(family.variants[*loads]).coverage)) {
          loads = i;
        }
      }
      why = fmt::format("nothing scanned names the framework's CUDA, so judged by the one that serves best ({})",
                        family.variants[*loads].tag);
    }
    std::vector<std::string> each, serving;
    for (size_t i = 0; i < family.variants.size(); ++i) {
      FileJudgement& fj = judged(family.variants[i]);
      fj.counted = loads == i;
      each.push_back(fmt::format("{} {}", family.variants[i].tag, outcome_name(fj.coverage)));
      if (binary::runs(fj.coverage)) serving.push_back(family.variants[i].tag);
    }
    const std::string override_word =
        hint.override_variable != nullptr ? fmt::format("; {} overrides", hint.override_variable) : std::string();
    pj.notes.push_back(fmt::format("{}: {} CUDA variants, one loads: {}; {}{}", family.pattern, family.variants.size(), why,
                                   fmt::join(each, ", "), override_word));
    if (!selector) {
      if (serving.size() != family.variants.size()) {
        pj.notes.push_back(serving.empty() ? std::string("no CUDA variant serves this device")
                                           : fmt::format("runs with the {} variant(s) only", fmt::join(serving, ", ")));
      }
    } else if (!serving.empty() && !(loads && binary::runs(judged(family.variants[*loads]).coverage))) {
      // Another variant would serve: the framework's CUDA (or the override) is the fix.
      std::vector<std::string> how;
      for (const auto& v : family.variants) {
        if (std::ranges::find(serving, v.tag) == serving.end()) continue;
        how.push_back(fmt::format("{} (a framework built for CUDA {}{})", v.tag, v.cuda.str(),
                                  hint.override_variable != nullptr
                                      ? fmt::format(", or {}={}{}", hint.override_variable, v.cuda.major(), v.cuda.minor())
                                      : std::string()));
      }
      pj.notes.push_back(fmt::format("variants that serve this device: {}", fmt::join(how, "; ")));
    }
  }
  return missing;
}

}  // namespace

std::vector<std::string> declared_arch_list_mismatches(const Package& p, const Inventory& inv) {
  std::vector<std::string> out;
  if (p.declared_arch_list.empty()) return out;
  const std::set<std::string> declared(p.declared_arch_list.begin(), p.declared_arch_list.end());
  for (size_t fi : p.files) {
    const DeviceCodeFile& f = inv.files[fi];
    // A dispatching library chooses its own targets; only whole-list binaries follow the list.
    if (f.kind.kind != binary::BinaryKind::WholeList) continue;
    std::set<std::string> shipped;
    for (const auto& e : f.judged_entries()) {
      if (e.is_image) shipped.insert(e.target.name());
    }
    // Targets it ships beyond the list are normal (PyTorch builds single kernels for sm_89 or
    // sm_90a on top of its list); a listed target without an image is a device told it is served.
    std::vector<std::string> missing;
    std::ranges::set_difference(declared, shipped, std::back_inserter(missing));
    if (missing.empty()) continue;
    std::string what = fmt::format("declares {} ({}) but {} has no {} image", fmt::join(p.declared_arch_list, " "),
                                   p.declared_arch_list_from, f.path, fmt::join(missing, "/"));
    out.push_back(std::move(what));
  }
  return out;
}

std::string arch_fix(PackageRole role, const std::string& name, arch::ComputeCapability cc, const AdviceContext& ctx) {
  const int n = cc.number();
  const std::string cc_s = cc.str();
  switch (role) {
    case PackageRole::PyTorch:
      if (n >= 100) {
        return fmt::format("install a torch build of the cu128 or newer variant: PyTorch's CUDA 12.8+ builds carry "
                           "sm_100/sm_120 for Blackwell (pytorch#150733, #159207); check with "
                           "torch.cuda.get_arch_list()");
      }
      if (n < 75) {
        return fmt::format("install a torch build of the cu126 variant: the CUDA 12.8+ builds dropped Maxwell and Pascal "
                           "(torch 2.8) and Volta (2.11's cu128/cu130 start at Turing, pytorch#157517, #172352); "
                           "cu126 keeps {}",
                           cc_s);
      }
      return fmt::format("install a torch build whose CUDA variant lists sm_{} (torch.cuda.get_arch_list())", n);
    case PackageRole::VendorLibrary:
      return fmt::format("install a release of {} that supports CC {} (NVIDIA's support matrix for the library)", name,
                         cc_s);
    case PackageRole::AotiPackage:
      return fmt::format("compile the model again on a CC {} GPU (torch._inductor.aoti_compile_and_package): an "
                         "AOTInductor package holds kernels for the GPU it was compiled on only",
                         cc_s);
    case PackageRole::Extension: break;
  }
  // An extension: rebuild for the device, with a toolkit that can.
  const auto range = ctx.nvcc_major != 0 ? arch::nvcc_arch_range(ctx.nvcc_major) : std::nullopt;
  if (range && (n < range->lowest || n > range->highest)) {
    const auto major = arch::newest_cuda_major_building(n);
    return fmt::format("rebuild {} with {} in TORCH_CUDA_ARCH_LIST using a CUDA {} toolkit: the installed nvcc "
                       "(CUDA {}) builds {:.1f}-{:.1f} only",
                       name, cc_s, major ? std::to_string(*major) + ".x" : std::string("(none known)"), ctx.nvcc_major,
                       range->lowest / 10.0, range->highest / 10.0);
  }
  return fmt::format("rebuild {} with {} in TORCH_CUDA_ARCH_LIST (or -gencode arch=compute_{},code=sm_{}); "
                     "a prebuilt wheel needs a release built for it",
                     name, cc_s, n, n);
}


std::optional<RuntimeNeed> runtime_need(const std::vector<std::string>& needed, std::optional<arch::CudaVersion> toolkit) {
  // The libraries whose major is the CUDA major (cuFFT, cuSPARSE keep their own numbering).
  static const std::regex elf(R"(^lib(cudart|cublas|cublasLt|nvrtc|nvJitLink)\.so\.(\d+)$)");
  static const std::regex pe(R"(^(cudart|cublas|cublasLt|nvrtc)64_(\d+)(_\d+)?\.dll$)", std::regex::icase);
  std::optional<RuntimeNeed> best;
  for (const auto& name : needed) {
    std::smatch m;
    int major = 0;
    if (std::regex_match(name, m, elf)) {
      major = std::stoi(m[2]);
    } else if (std::regex_match(name, m, pe)) {
      const std::string digits = m[2];  // cudart64_12, cudart64_110 (11.0), nvrtc64_120_0
      major = std::stoi(digits.size() == 3 ? digits.substr(0, 2) : digits);
    }
    if (major > 0 && (!best || major > best->cuda_major)) best = RuntimeNeed{major, name};
  }
  // Device code compiled by CUDA N needs a driver of CUDA N's branch whatever the runtime's linking.
  if (toolkit && toolkit->known() && (!best || toolkit->major() > best->cuda_major)) {
    best = RuntimeNeed{toolkit->major(), "toolkit notes: CUDA " + toolkit->str()};
  }
  return best;
}

PackageRole role_of(const Package& p, const Inventory& inv) {
  if (p.name == "torch" || p.name == "pytorch") return PackageRole::PyTorch;
  if (p.name.ends_with(".pt2")) return PackageRole::AotiPackage;  // distributions.cpp names it by its file
  if (is_nvidia_library_package(p.name)) return PackageRole::VendorLibrary;
  const bool all_dispatching = std::ranges::all_of(p.files, [&](size_t i) {
    return inv.files[i].kind.kind == binary::BinaryKind::Dispatching;
  });
  return all_dispatching && !p.files.empty() ? PackageRole::VendorLibrary : PackageRole::Extension;
}

std::vector<std::string> mixed_cuda_runtimes(const Inventory& inv) {
  std::map<int, std::set<std::string>> by_major;  // major -> "torch 2.11.0+cu130 (libcudart.so.13)"
  for (const auto& p : inv.packages) {
    std::set<size_t> in_families;
    for (const auto& family : find_variant_families(p, inv)) {
      for (const auto& v : family.variants) in_families.insert(v.file);
    }
    // The package's major: what its binaries pin, else what it declares (nvidia-nvjpeg-cu12).
    std::optional<RuntimeNeed> pinned;
    for (size_t fi : p.files) {
      if (in_families.contains(fi)) continue;
      const DeviceCodeFile& f = inv.files[fi];
      std::vector<std::string> names = f.needed;
      names.push_back(std::filesystem::path(f.path).filename().string());
      if (const auto need = runtime_need(names, f.toolkit); need && (!pinned || need->cuda_major > pinned->cuda_major)) {
        pinned = need;
      }
    }
    if (!pinned && p.declared_cuda_major && in_families.size() < p.files.size()) {
      pinned = RuntimeNeed{*p.declared_cuda_major, p.declared_from};
    }
    if (pinned) {
      by_major[pinned->cuda_major].insert(
          fmt::format("{} ({})", p.version.empty() ? p.name : p.name + " " + p.version, pinned->library));
    }
  }
  std::vector<std::string> out;
  if (by_major.size() < 2) return out;
  for (const auto& [major, packages] : by_major) {
    const std::vector<std::string> list(packages.begin(), packages.end());
    const size_t shown = std::min<size_t>(list.size(), 4);
    out.push_back(fmt::format("CUDA {}: {}{}", major,
                              fmt::join(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(shown), ", "),
                              list.size() > shown ? fmt::format(" and {} more", list.size() - shown) : std::string()));
  }
  return out;
}

namespace {

// One file of package `p` on `device`: its coverage by its images, and the CUDA runtime it pins
// against the driver; notes for the package (arch-specific units for other devices, unread parts).
FileJudgement judge_file(size_t fi, const Inventory& inv, const Package& p, const arch::DeviceSpec& device,
                         const arch::DeviceFacts& facts, PackageJudgement& pj) {
  const DeviceCodeFile& f = inv.files[fi];
  FileJudgement fj;
  fj.file = fi;
  fj.tally = f.kernels.empty() ? binary::tally_containers(f.judged_entries(), facts)
                               : binary::tally_kernels(f.kernels, facts);
  fj.coverage = binary::judge(f.kind.kind, fj.tally);
  // The CUDA major it pins: by what it links, by its own name (libcublasLt.so.13 is CUDA 13's),
  // or by what its package declares (nvidia-cudnn-cu13, +cu128).
  std::vector<std::string> names = f.needed;
  names.push_back(std::filesystem::path(f.path).filename().string());
  fj.runtime = runtime_need(names, f.toolkit);
  // NVIDIA's CUDA 13 wheels install into site-packages/nvidia/cu13/: the directory says it.
  static const std::regex nvidia_dir(R"((^|/)nvidia/cu(\d{2})/)");
  if (std::smatch m; std::regex_search(f.path, m, nvidia_dir) && (!fj.runtime || fj.runtime->cuda_major < std::stoi(m[2]))) {
    fj.runtime = RuntimeNeed{std::stoi(m[2]), "nvidia/cu" + m[2].str() + "/"};
  }
  if (p.declared_cuda_major && (!fj.runtime || fj.runtime->cuda_major < *p.declared_cuda_major)) {
    fj.runtime = RuntimeNeed{*p.declared_cuda_major, p.name + " (" + p.declared_from + ")"};
  }
  if (fj.runtime && device.driver.known() && device.driver.major() < fj.runtime->cuda_major) {
    fj.runtime_too_new = true;
    if (binary::runs(fj.coverage) || fj.coverage == ImageOutcome::Partial) fj.coverage = ImageOutcome::NeedsNewerDriver;
  }
  if (f.kind.kind == binary::BinaryKind::WholeList && fj.tally.arch_specific_elsewhere > 0) {
    pj.notes.push_back(fmt::format(
        "{}: {} unit(s) hold only arch-specific code (`a`/`f`) for other devices: no image on {}; fine unless "
        "the package launches them here (as xformers' FA3 kernels on RTX 50, xformers#1323)",
        f.path, fj.tally.arch_specific_elsewhere, device.cc.str()));
  }
  for (const auto& problem : f.problems) {
    pj.notes.push_back(problem + "; judged on the sections that could be read");
  }
  return fj;
}

// The package's summary, cause and fix on `device`, from its worst counted file.
void explain(PackageJudgement& pj, const FileJudgement* worst, const Package& p, const Inventory& inv,
             const arch::DeviceSpec& device, PackageRole role, const AdviceContext& ctx) {
  const DeviceCodeFile& wf = inv.files[worst->file];
  const std::string cc = device.cc.str();
  const auto& t = worst->tally;
  const std::string unit = wf.kernels.empty() ? "container" : "kernel";
  switch (pj.coverage) {
    case ImageOutcome::Sass:
    case ImageOutcome::PtxJit: {
      std::string used;
      for (const auto& fj : pj.files) {
        if (!fj.counted) continue;
        for (const auto& [label, n] : fj.tally.images_used) {
          if (used.find(label) == std::string::npos) used += (used.empty() ? "" : ", ") + label;
        }
      }
      pj.summary = used;
      if (pj.coverage == ImageOutcome::PtxJit) {
        pj.cause = fmt::format("no SASS for {} in {}: the driver JIT-compiles its PTX at first use (a slow start, "
                               "and it fails with CUDA_DISABLE_PTX_JIT=1)", cc, wf.path);
        pj.fix = arch_fix(role, p.name, device.cc, ctx);
      }
      break;
    }
    case ImageOutcome::NeedsNewerDriver:
      if (worst->runtime_too_new) {
        const int branch = arch::minimum_driver_branch_for_runtime(worst->runtime->cuda_major);
        pj.summary = fmt::format("built for the CUDA {} runtime ({})", worst->runtime->cuda_major,
                                 worst->runtime->library);
        pj.cause = fmt::format("{} is built for CUDA {}.x ({}), which needs a driver of branch {} or newer; this one "
                               "reports CUDA {}",
                               wf.path, worst->runtime->cuda_major, worst->runtime->library, branch,
                               device.driver.str());
        pj.fix = fmt::format("update the driver to branch {}+, or install a build of {} for CUDA {}.x", branch,
                             p.name, device.driver.major());
      } else {
        pj.summary = fmt::format("only PTX newer than CUDA {} can JIT", device.driver.str());
        pj.cause = fmt::format("{}: no SASS for {}, and its PTX is newer than this driver can JIT (error 222)", wf.path, cc);
        pj.fix = t.driver_needed ? fmt::format("update the driver to {} (CUDA {}) or newer, or {}", t.driver_needed->branch,
                                               t.driver_needed->cuda.str(), arch_fix(role, p.name, device.cc, ctx))
                                 : arch_fix(role, p.name, device.cc, ctx);
      }
      break;
    case ImageOutcome::Partial:
    case ImageOutcome::Missing:
    case ImageOutcome::JitDisabled: {
      const size_t failing = t.failing();
      pj.summary = pj.coverage == ImageOutcome::Missing ? fmt::format("none of {} {}(s) loads on {}", t.units, unit, cc)
                                                    : fmt::format("{} of {} {}(s) have no image for {}", failing,
                                                                  t.units, unit, cc);
      if (wf.kind.kind == binary::BinaryKind::Dispatching) {
        // A library's kernels are per architecture: say which it serves.
        std::set<std::pair<int, std::string>> targets;  // by arch, so sm_75 comes before sm_100
        for (const auto& e : wf.entries) {
          if (e.is_image) targets.emplace(e.target.arch, e.target.name());
        }
        std::vector<std::string> names;
        for (const auto& t : targets) names.push_back(t.second);
        pj.cause = fmt::format("{} carries code for {} only; nothing it has runs on {}", wf.path,
                               fmt::join(names, ", "), cc);
      } else {
        pj.cause = t.failing_by_cause.empty() ? std::string() : wf.path + ": " + t.failing_by_cause.begin()->first;
      }
      pj.fix = pj.coverage == ImageOutcome::JitDisabled ? "unset CUDA_DISABLE_PTX_JIT, or " + arch_fix(role, p.name, device.cc, ctx)
                                                    : arch_fix(role, p.name, device.cc, ctx);
      break;
    }
    case ImageOutcome::NoDeviceCode: pj.summary = "no device code"; break;
    // A file's judgement never gives these (they are a kernel's or an operator's).
    case ImageOutcome::NotProbed:
    case ImageOutcome::Library:
    case ImageOutcome::Unsupported:
    case ImageOutcome::LibraryError: break;
  }
}

// What is worth saying beside the verdict: a runtime newer than the driver when an image gap is the
// worse news, and what the package declares against what it ships.
void add_notes(PackageJudgement& pj, const Package& p, const Inventory& inv) {
  // A runtime newer than the driver stays worth saying when an image gap is the worse news.
  if (pj.coverage != ImageOutcome::NeedsNewerDriver) {
    for (const auto& fj : pj.files) {
      if (!fj.runtime_too_new || !fj.counted) continue;
      pj.notes.push_back(fmt::format("{} is also built for the CUDA {} runtime ({}): it needs a driver of branch {} "
                                     "or newer", inv.files[fj.file].path, fj.runtime->cuda_major, fj.runtime->library,
                                     arch::minimum_driver_branch_for_runtime(fj.runtime->cuda_major)));
      break;
    }
  }
  // What the package declares against what it ships.
  for (auto& note : declared_arch_list_mismatches(p, inv)) pj.notes.push_back(std::move(note));
  if (p.declared_cuda_major) {
    for (const auto& fj : pj.files) {
      if (fj.counted && fj.runtime && fj.runtime->cuda_major != *p.declared_cuda_major) {
        pj.notes.push_back(fmt::format("declares CUDA {} ({}) but {} links {}", *p.declared_cuda_major,
                                       p.declared_from, inv.files[fj.file].path, fj.runtime->library));
        break;
      }
    }
  }
}

}  // namespace

std::vector<DeviceJudgement> judge_inventory(const Inventory& inv, const std::vector<arch::DeviceSpec>& devices,
                                             const AdviceContext& ctx) {
  std::vector<DeviceJudgement> out;
  for (const auto& device : devices) {
    const arch::DeviceFacts facts{device.cc, device.driver};
    DeviceJudgement dj{device, {}};
    for (size_t pi = 0; pi < inv.packages.size(); ++pi) {
      const Package& p = inv.packages[pi];
      const PackageRole role = role_of(p, inv);
      PackageJudgement pj;
      pj.package = pi;
      const FileJudgement* worst = nullptr;
      for (size_t fi : p.files) pj.files.push_back(judge_file(fi, inv, p, device, facts, pj));
      const auto variant_missing = count_loading_variants(p, inv, ctx, pj);
      // A whole-list file whose every unit is arch-specific code for other devices (xformers' FlashAttention-3
      // library, torchao's sm_90a CUTLASS kernels) is one the package launches only on those devices: it stays
      // out of the verdict while another file of the package has code for this one (the note above names it).
      auto elsewhere_only = [&](const FileJudgement& f) {
        return inv.files[f.file].kind.kind == binary::BinaryKind::WholeList && f.tally.only_arch_specific_elsewhere();
      };
      if (std::ranges::any_of(pj.files, [&](const FileJudgement& f) { return f.counted && f.tally.units > 0 && !elsewhere_only(f); })) {
        for (auto& f : pj.files) {
          if (elsewhere_only(f)) f.counted = false;
        }
      }
      // Counted files first, worst first: the verdict is the first one's.
      std::ranges::stable_sort(pj.files, std::greater<>{}, [](const FileJudgement& f) {
        return std::pair(f.counted, severity(f.coverage));
      });
      if (!pj.files.empty()) worst = &pj.files.front();
      if (worst == nullptr) continue;
      pj.coverage = worst->coverage;
      if (variant_missing) {
        pj.coverage = ImageOutcome::Missing;
        pj.summary = "the CUDA variant it would load is not shipped";
        pj.cause = *variant_missing;
        pj.fix = fmt::format("install a release of {} built for this CUDA, or install a framework build whose CUDA it "
                             "ships a variant for{}",
                             p.name, loader_hint(p.name).override_variable != nullptr
                                         ? fmt::format(" (or set {} to one it ships)", loader_hint(p.name).override_variable)
                                         : std::string());
        dj.packages.push_back(std::move(pj));
        continue;
      }
      explain(pj, worst, p, inv, device, role, ctx);
      add_notes(pj, p, inv);
      dj.packages.push_back(std::move(pj));
    }
    std::ranges::stable_sort(dj.packages, std::greater<>{}, [](const PackageJudgement& p) { return severity(p.coverage); });
    out.push_back(std::move(dj));
  }
  return out;
}

}  // namespace archbench::stack
