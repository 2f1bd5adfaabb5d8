// Root causes users meet in the field when GPU code does not run, by the stable ids of
// docs/reference/field-causes.md ("The causes"). A doctor finding names the causes it is an
// instance of with these values; the id strings appear only at the text and JSON boundary.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace archbench::doctor {

enum class FieldCause {
  NoSassForMajor,                // no-sass-for-major
  ArchDroppedByToolkit,          // arch-dropped-by-toolkit
  ArchOnlyOnSomePaths,           // arch-only-on-some-paths
  HardcodedGencodeList,          // hardcoded-gencode-list
  CapabilityGuard,               // capability-guard
  WrongPlatformWheel,            // wrong-platform-wheel
  TegraArchNotBuilt,             // tegra-arch-not-built
  ArchSpecificCubin,             // arch-specific-cubin
  DriverOlderThanRuntime,        // driver-older-than-runtime
  PtxNewerThanDriver,            // ptx-newer-than-driver
  NoDriverInContainer,           // no-driver-in-container
  KernelModuleMismatch,          // kernel-module-mismatch
  MixedCudaLibraries,            // mixed-cuda-libraries
  ExtensionAbiMismatch,          // extension-abi-mismatch
  VisibleDevicesMistake,         // visible-devices-mistake
  MigInstance,                   // mig-instance
  PtxJitReliance,                // ptx-jit-reliance
  LazyLoadingDefersFailure,      // lazy-loading-defers-failure
  SilentWrongResults,            // silent-wrong-results
  CollectiveOnUnsupportedStack,  // collective-on-unsupported-stack
};
using FieldCauses = std::vector<FieldCause>;

// The page that defines the ids, as the program names it to users.
inline constexpr std::string_view kFieldCausesPage = "docs/reference/field-causes.md";

[[nodiscard]] std::string_view to_string(FieldCause c);  // "no-driver-in-container"
[[nodiscard]] std::optional<FieldCause> parse_field_cause(std::string_view id);
[[nodiscard]] std::span<const FieldCause> all_field_causes();  // in the page's order

}  // namespace archbench::doctor
