// Which path ran: for each problem (family, dtype, shape) that archbench implements several ways,
// the implementation a framework's dispatcher would pick on this device: the first, in the
// family's order of preference, whose image runs here and whose result is right. With it, why
// each better path was passed over and what every other path costs on this device.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/ops/dtype.hpp"
#include "harness/result/operator_verdict.hpp"

namespace archbench {

struct OperatorResult;

// One family's own implementations of a problem in some dtypes, best first, and the library a
// stack could call instead; a family may have an entry per group of dtypes (matmul: f16 and bf16
// have three paths, FP8 one). The table itself is the kernels' business (kernels/path_preference.hpp).
struct PathPreference {
  struct Path {
    std::string name;             // "gemm_wgmma"
    std::optional<DType> dtype;   // the dtype it computes in; none: the problem's own (the SIMT paths are f32 only)
  };
  std::string family;               // "matmul"
  std::vector<DType> dtypes;        // the problem dtypes there is a choice for: f16, bf16
  std::vector<Path> paths;          // best first
  std::string twin;                 // the library twin at the problem's dtype: "gemm_cublas"
};

// One path of a choice, as the run found it.
struct PathCandidate {
  std::string id;                  // "matmul/gemm_simt/f32/M4096_N4096_K4096"
  std::string name;                // "gemm_simt"
  OperatorVerdict verdict;         // its image verdict, wrong, error, or absent (not in this run)
  std::string label;               // the image label: "sass sm_90a", "cuBLAS 13.1.0"
  bool usable = false;             // its image runs here and its result is right
  std::optional<double> time_ratio;  // its median time / the chosen path's; absent unless both were timed
};

// The choice for one problem.
struct PathChoice {
  std::string family;
  DType dtype = DType::F32;
  std::string shape;
  std::vector<PathCandidate> own;     // the family's own paths, best first
  std::optional<PathCandidate> twin;  // the library twin, when the run has it
  std::optional<size_t> chosen;       // index into own; none when no own path runs here

  [[nodiscard]] const PathCandidate* chosen_path() const { return chosen ? &own[*chosen] : nullptr; }
};

// One choice per (family, dtype, shape) of `preferences` at which `results` (one device's) hold at
// least one path computing in the problem's own dtype, in the order the results first name them.
[[nodiscard]] std::vector<PathChoice> choose_paths(const std::vector<OperatorResult>& results,
                                                   const std::vector<PathPreference>& preferences);

}  // namespace archbench
