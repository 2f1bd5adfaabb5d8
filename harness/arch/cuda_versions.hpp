// CUDA release facts that the compatibility rules need (docs/reference/compat.md, "PTX ISA, toolkit and driver"
// and "Driver and runtime versions"), kept as data.
#pragma once

#include <optional>
#include <string>

namespace archbench::arch {

// A CUDA version as the runtime reports it: 13000 = 13.0, 12080 = 12.8.
struct CudaVersion {
  int value = 0;
  [[nodiscard]] int major() const { return value / 1000; }
  [[nodiscard]] int minor() const { return (value % 1000) / 10; }
  [[nodiscard]] bool known() const { return value > 0; }
  [[nodiscard]] std::string str() const;  // "13.0", or "unknown"
  static CudaVersion from(int major, int minor) { return {major * 1000 + minor * 10}; }
};

// A PTX ISA version (9.0 = {9, 0}).
struct PtxIsa {
  int major = 0;
  int minor = 0;
  [[nodiscard]] bool known() const { return major > 0; }
  [[nodiscard]] int number() const { return major * 10 + minor; }
  [[nodiscard]] std::string str() const;
  auto operator<=>(const PtxIsa&) const = default;
};

// The PTX ISA a toolkit of this version writes, which is also the newest ISA a driver that
// reports this CUDA version can JIT (PTX ISA release notes table). nullopt for versions
// outside the table (before 12.0 or newer than this build knows).
[[nodiscard]] std::optional<PtxIsa> ptx_isa_of_cuda(CudaVersion v);

// The oldest CUDA version whose driver JITs this PTX ISA, and that driver branch ("r595").
struct DriverNeed {
  CudaVersion cuda;
  std::string branch;
};
[[nodiscard]] std::optional<DriverNeed> driver_needed_for(PtxIsa isa);

// The CUDA version a driver branch reports (r580 -> 13.0, r570 -> 12.8); nullopt when unknown.
[[nodiscard]] std::optional<CudaVersion> cuda_of_driver_branch(int branch);

// The minimum driver branch for a runtime major (13.x needs r580; docs/reference/compat.md, "Driver and runtime
// versions").
[[nodiscard]] int minimum_driver_branch_for_runtime(int runtime_major);

// The plain architectures an nvcc of a CUDA major builds (nvcc --list-gpu-code of its newest
// release: 13.x 7.5-12.1; 12.8+ 5.0-12.1; 11.8 3.5-9.0). nullopt for a major outside the table.
struct NvccArchRange {
  int lowest = 0;   // 75
  int highest = 0;  // 121
};
[[nodiscard]] std::optional<NvccArchRange> nvcc_arch_range(int cuda_major);
// The newest CUDA major whose nvcc builds this architecture (70 -> 12), nullopt when none known does.
[[nodiscard]] std::optional<int> newest_cuda_major_building(int arch);

}  // namespace archbench::arch
