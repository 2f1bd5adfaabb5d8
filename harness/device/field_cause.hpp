// Root causes users meet in the field when GPU code does not run, by the stable ids of
// docs/reference/field-causes.md ("The causes"). A doctor finding names the causes it is an
// instance of with these values; the id strings appear only at the text and JSON boundary.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "harness/util/enum_names.hpp"

namespace archbench::doctor {

enum class FieldCause {
  NoSassForMajor, ArchDroppedByToolkit, ArchOnlyOnSomePaths, HardcodedGencodeList, CapabilityGuard,
  WrongPlatformWheel, TegraArchNotBuilt, ArchSpecificCubin, DriverOlderThanRuntime, PtxNewerThanDriver,
  NoDriverInContainer, KernelModuleMismatch, MixedCudaLibraries, ExtensionAbiMismatch, VisibleDevicesMistake,
  MigInstance, PtxJitReliance, LazyLoadingDefersFailure, SilentWrongResults, CollectiveOnUnsupportedStack,
};

// The ids, in the order of the page's table.
inline constexpr auto kFieldCauses = enum_names<FieldCause>({
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
});
// The last enumerator has the last row (enum_names checks the others): the table misses none.
static_assert(kFieldCauses.back().value == FieldCause::CollectiveOnUnsupportedStack, "a cause without an id");

using FieldCauses = std::vector<FieldCause>;

// The page that defines the ids, as the program names it to users.
inline constexpr std::string_view kFieldCausesPage = "docs/reference/field-causes.md";

[[nodiscard]] std::string_view to_string(FieldCause c);  // "no-driver-in-container"
[[nodiscard]] std::optional<FieldCause> parse_field_cause(std::string_view id);
[[nodiscard]] std::span<const FieldCause> all_field_causes();  // in the page's order

}  // namespace archbench::doctor
