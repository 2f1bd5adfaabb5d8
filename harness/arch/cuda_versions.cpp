#include "harness/arch/cuda_versions.hpp"

#include <array>
#include <string>

namespace archbench::arch {
namespace {

// PTX ISA doc §13, Table 62: toolkit version -> ISA -> first driver branch that JITs it.
struct IsaRow {
  int cuda_major, cuda_minor;
  PtxIsa isa;
  const char* branch;
};
constexpr std::array kIsaTable{
    IsaRow{12, 0, {8, 0}, "r525"}, IsaRow{12, 1, {8, 1}, "r530"}, IsaRow{12, 2, {8, 2}, "r535"},
    IsaRow{12, 3, {8, 3}, "r545"}, IsaRow{12, 4, {8, 4}, "r550"}, IsaRow{12, 5, {8, 5}, "r555"},
    IsaRow{12, 6, {8, 5}, "r560"}, IsaRow{12, 7, {8, 6}, "r565"}, IsaRow{12, 8, {8, 7}, "r570"},
    IsaRow{12, 9, {8, 8}, "r575"}, IsaRow{13, 0, {9, 0}, "r580"}, IsaRow{13, 1, {9, 1}, "r590"},
    IsaRow{13, 2, {9, 2}, "r595"}, IsaRow{13, 3, {9, 3}, "r610"},
};

}  // namespace

std::string CudaVersion::str() const {
  if (!known()) return "unknown";
  return std::to_string(major()) + "." + std::to_string(minor());
}

std::string PtxIsa::str() const {
  if (!known()) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

std::optional<PtxIsa> ptx_isa_of_cuda(CudaVersion v) {
  if (!v.known()) return std::nullopt;
  const auto& newest = kIsaTable.back();
  if (v.value > CudaVersion::from(newest.cuda_major, newest.cuda_minor).value) {
    // Newer than this table: within CUDA 13 the ISA minor has followed the toolkit minor;
    // beyond that we do not guess (unknown = do not flag PTX as too new).
    if (v.major() == 13) return PtxIsa{9, v.minor()};
    return std::nullopt;
  }
  const IsaRow* best = nullptr;
  for (const auto& row : kIsaTable) {
    if (CudaVersion::from(row.cuda_major, row.cuda_minor).value <= v.value) best = &row;
  }
  if (best == nullptr) return std::nullopt;
  return best->isa;
}

std::optional<DriverNeed> driver_needed_for(PtxIsa isa) {
  for (const auto& row : kIsaTable) {
    if (row.isa >= isa) return DriverNeed{CudaVersion::from(row.cuda_major, row.cuda_minor), row.branch};
  }
  return std::nullopt;
}

std::optional<CudaVersion> cuda_of_driver_branch(int branch) {
  const IsaRow* best = nullptr;
  for (const auto& row : kIsaTable) {
    if (std::stoi(row.branch + 1) <= branch) best = &row;
  }
  if (best == nullptr) return std::nullopt;
  return CudaVersion::from(best->cuda_major, best->cuda_minor);
}

int minimum_driver_branch_for_runtime(int runtime_major) {
  if (runtime_major >= 13) return 580;
  if (runtime_major == 12) return 525;
  if (runtime_major == 11) return 450;
  return 0;
}

std::optional<NvccArchRange> nvcc_arch_range(int cuda_major) {
  switch (cuda_major) {
    case 13: return NvccArchRange{75, 121};
    case 12: return NvccArchRange{50, 121};
    case 11: return NvccArchRange{35, 90};
    default: return std::nullopt;
  }
}

std::optional<int> newest_cuda_major_building(int arch) {
  for (int major = 13; major >= 11; --major) {
    if (const auto r = nvcc_arch_range(major); r && arch >= r->lowest && arch <= r->highest) return major;
  }
  return std::nullopt;
}

}  // namespace archbench::arch
