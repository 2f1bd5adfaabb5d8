#include "harness/binary/device_coverage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>


namespace archbench::binary {
namespace {


// NVIDIA's CUDA libraries pick kernels per architecture at run time.
constexpr std::array kDispatchingFamilies = {
    "libcublas",  "libcublasLt", "libcudnn",   "libcufft",  "libcufftw", "libcusparse", "libcusparseLt",
    "libcusolver", "libcusolverMg", "libcurand", "libnccl",  "libnvjpeg", "libnpp",      "libnvshmem",
    "libcutensor", "libnvblas",  "libcufile",  "libnvJitLink", "cublas64", "cublasLt64", "cudnn",
    "cufft64",    "cusparse64",  "cusolver64", "curand64", "nvjpeg64",  "cudnn64",     "cudnn_"};

// "libcublasLt.so.13.1.0.3" -> "libcublasLt"; "cublas64_12.dll" -> "cublas64".
std::string family_of(std::string_view file_name) {
  std::string name(file_name.substr(0, file_name.find('.')));
  if (const auto us = name.rfind('_'); us != std::string::npos && us + 1 < name.size() &&
                                        std::all_of(name.begin() + static_cast<long>(us) + 1, name.end(), ::isdigit)) {
    name.resize(us);  // cudart64_12 -> cudart64
  }
  return name;
}

bool is_dispatching_library(std::string_view file_name) {
  const std::string family = family_of(file_name);
  return std::ranges::any_of(kDispatchingFamilies, [&](std::string_view f) {
    return family == f || (f.ends_with("_") && family.starts_with(f)) || family.starts_with(std::string(f) + "_");
  });
}

bool arch_specific(const arch::CodeTarget& t) { return t.suffix != arch::Suffix::None; }

// One unit (a container's images or a kernel's) on the device, added to the tally.
void add_unit(CoverageTally& t, const std::vector<arch::CodeTarget>& images, const std::string& name,
              const arch::DeviceFacts& device) {
  if (images.empty()) return;
  ++t.units;
  const arch::Verdict v = arch::predict(arch::ImageSet{images, {0, 0}}, device);
  ++t.by_status[v.status];
  if (v.loads()) {
    ++t.images_used[v.label()];
    return;
  }
  if (std::ranges::all_of(images, arch_specific)) ++t.arch_specific_elsewhere;
  t.failing_by_cause[v.label() + ": " + v.cause].push_back(name);
  if (t.first_fix.empty()) t.first_fix = v.fix;
  if (v.status == ImageOutcome::NeedsNewerDriver && v.image && v.image->ptx_isa.known()) {
    if (auto need = arch::driver_needed_for(v.image->ptx_isa);
        need && (!t.driver_needed || need->cuda.value > t.driver_needed->cuda.value)) {
      t.driver_needed = need;
    }
  }
}

}  // namespace

std::string_view kind_name(BinaryKind k) { return k == BinaryKind::Dispatching ? "dispatching" : "whole-list"; }

KindGuess classify_binary(std::string_view file_name, const std::vector<FatbinEntry>& entries) {
  if (is_dispatching_library(file_name)) {
    return {BinaryKind::Dispatching, "a CUDA library that picks kernels per architecture (" + family_of(file_name) + ")", {}};
  }
  std::map<int, std::set<arch::CodeTarget>> per_container;
  for (const auto& e : entries) {
    if (e.is_image && !arch_specific(e.target)) per_container[e.container].insert(e.target);
  }
  std::map<std::set<arch::CodeTarget>, size_t> sets;
  for (const auto& [c, targets] : per_container) ++sets[targets];
  if (sets.empty()) return {BinaryKind::WholeList, "no portable targets: judged kernel by kernel", {}};
  const auto modal = std::ranges::max_element(sets, {}, [](const auto& kv) { return kv.second; });
  const size_t containers = per_container.size();
  // nvcc gives every compilation unit the same targets; a dispatching library gives each its own.
  if (modal->second * 10 >= containers * 8) {
    return {BinaryKind::WholeList,
            fmt::format("{} of {} containers carry the same targets", modal->second, containers),
            {modal->first.begin(), modal->first.end()}};
  }
  return {BinaryKind::Dispatching,
          fmt::format("its {} containers carry {} different target sets: kernels per architecture", containers,
                      sets.size()),
          {}};
}

size_t CoverageTally::count(ImageOutcome s) const {
  const auto it = by_status.find(s);
  return it == by_status.end() ? 0 : it->second;
}

CoverageTally tally_containers(const std::vector<FatbinEntry>& entries, const arch::DeviceFacts& device) {
  std::map<int, std::vector<arch::CodeTarget>> per_container;
  for (const auto& e : entries) {
    if (e.is_image) per_container[e.container].push_back(e.target);
  }
  CoverageTally t;
  for (const auto& [c, images] : per_container) add_unit(t, images, fmt::format("container {}", c), device);
  return t;
}

CoverageTally tally_kernels(const std::vector<KernelImages>& kernels, const arch::DeviceFacts& device) {
  CoverageTally t;
  for (const auto& k : kernels) add_unit(t, k.images, k.demangled.empty() ? k.mangled : k.demangled, device);
  return t;
}

bool runs(ImageOutcome c) { return c == ImageOutcome::Sass || c == ImageOutcome::PtxJit; }

ImageOutcome judge(BinaryKind kind, const CoverageTally& t) {
  if (t.units == 0) return ImageOutcome::NoDeviceCode;
  const size_t sass = t.count(ImageOutcome::Sass), jit = t.count(ImageOutcome::PtxJit);
  const size_t too_new = t.count(ImageOutcome::NeedsNewerDriver), disabled = t.count(ImageOutcome::JitDisabled);
  if (kind == BinaryKind::Dispatching) {
    // Served when the library has code for the device at all; its other kernels are for other GPUs.
    if (sass > 0) return ImageOutcome::Sass;
    if (jit > 0) return ImageOutcome::PtxJit;
    if (too_new > 0) return ImageOutcome::NeedsNewerDriver;
    if (disabled > 0) return ImageOutcome::JitDisabled;
    return ImageOutcome::Missing;
  }
  const size_t failing = t.failing();
  if (failing == 0) {
    if (t.only_arch_specific_elsewhere()) return ImageOutcome::Missing;
    return jit == 0 ? ImageOutcome::Sass : ImageOutcome::PtxJit;
  }
  if (too_new > 0 && too_new + disabled >= failing) return ImageOutcome::NeedsNewerDriver;
  if (disabled > 0 && disabled >= failing) return ImageOutcome::JitDisabled;
  return sass + jit == 0 ? ImageOutcome::Missing : ImageOutcome::Partial;
}

}  // namespace archbench::binary
