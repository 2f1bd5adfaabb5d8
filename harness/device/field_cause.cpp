#include "harness/device/field_cause.hpp"

#include <algorithm>
#include <cstddef>
#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

namespace archbench::doctor {
namespace {

// The one table of id strings, in the order of docs/reference/field-causes.md.
constexpr std::array<std::pair<FieldCause, std::string_view>, 20> kIds{{
    {FieldCause::NoSassForMajor, "no-sass-for-major"},
    {FieldCause::ArchDroppedByToolkit, "arch-dropped-by-toolkit"},
    {FieldCause::ArchOnlyOnSomePaths, "arch-only-on-some-paths"},
    {FieldCause::HardcodedGencodeList, "hardcoded-gencode-list"},
    {FieldCause::CapabilityGuard, "capability-guard"},
    {FieldCause::WrongPlatformWheel, "wrong-platform-wheel"},
    {FieldCause::TegraArchNotBuilt, "tegra-arch-not-built"},
    {FieldCause::ArchSpecificCubin, "arch-specific-cubin"},
    {FieldCause::DriverOlderThanRuntime, "driver-older-than-runtime"},
    {FieldCause::PtxNewerThanDriver, "ptx-newer-than-driver"},
    {FieldCause::NoDriverInContainer, "no-driver-in-container"},
    {FieldCause::KernelModuleMismatch, "kernel-module-mismatch"},
    {FieldCause::MixedCudaLibraries, "mixed-cuda-libraries"},
    {FieldCause::ExtensionAbiMismatch, "extension-abi-mismatch"},
    {FieldCause::VisibleDevicesMistake, "visible-devices-mistake"},
    {FieldCause::MigInstance, "mig-instance"},
    {FieldCause::PtxJitReliance, "ptx-jit-reliance"},
    {FieldCause::LazyLoadingDefersFailure, "lazy-loading-defers-failure"},
    {FieldCause::SilentWrongResults, "silent-wrong-results"},
    {FieldCause::CollectiveOnUnsupportedStack, "collective-on-unsupported-stack"},
}};

// Row i is the enumerator i, and the last enumerator has the last row: the table misses none.
static_assert([] {
  for (size_t i = 0; i < kIds.size(); ++i)
    if (static_cast<size_t>(kIds[i].first) != i) return false;
  return kIds.back().first == FieldCause::CollectiveOnUnsupportedStack;
}());

constexpr std::array<FieldCause, kIds.size()> kAll = [] {
  std::array<FieldCause, kIds.size()> out{};
  for (size_t i = 0; i < kIds.size(); ++i) out[i] = kIds[i].first;
  return out;
}();

}  // namespace

std::string_view to_string(FieldCause c) {
  const auto i = static_cast<size_t>(c);
  return i < kIds.size() ? kIds[i].second : std::string_view("unknown-cause");
}

std::optional<FieldCause> parse_field_cause(std::string_view id) {
  const auto it = std::ranges::find(kIds, id, &std::pair<FieldCause, std::string_view>::second);
  if (it == kIds.end()) return std::nullopt;
  return it->first;
}

std::span<const FieldCause> all_field_causes() { return kAll; }

}  // namespace archbench::doctor
