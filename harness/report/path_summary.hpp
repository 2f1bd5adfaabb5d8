// One line per family and dtype of a device's path choices (harness/result/path_choice.hpp),
// summarised over its shapes, for the text report and the HTML page:
//   matmul f16: gemm_wgmma (sass sm_90a) on 4/4 shapes; gemm_tc 2.20x slower, gemm_simt 9.13x slower,
//   gemm_cublas 1.05x faster
// Times are geometric means over the shapes of each path's median / the chosen path's; without
// timings (--quick, --no-timing) a path that could have run says "runs".
#pragma once

#include <string>
#include <vector>

#include "harness/result/path_choice.hpp"

namespace archbench {

struct PathSummary {
  std::string family;
  DType dtype = DType::F32;
  std::string chosen;               // "gemm_wgmma (sass sm_90a) on 4/4 shapes", or "nothing runs on 4/4 shapes"
  std::vector<std::string> others;  // "gemm_tc 2.20x slower", ...: the other own paths best first, then the twin
  // What follows "matmul f16: ": the chosen part, then "; " and the others joined by ", ".
  [[nodiscard]] std::string text() const;
};

[[nodiscard]] std::vector<PathSummary> summarize_paths(const std::vector<PathChoice>& choices);

}  // namespace archbench
