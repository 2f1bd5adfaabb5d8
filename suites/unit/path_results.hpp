// Fake results of the paths of one problem family for the path-choice tests: each path's image
// verdict, whether its check passed and its median, at every shape given; no GPU involved.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/result/result.hpp"
#include "suites/unit/result_rows.hpp"

namespace archbench::testing_support {

struct FakePath {
  std::string name, dtype;  // "gemm_simt", "f32"
  ImageOutcome image = ImageOutcome::Sass;
  std::string label = "sass sm_90a";
  std::optional<double> median_ms;  // none: not timed (--quick, or it failed its check)
  bool correct = true;
};

inline const std::vector<std::string> kMatmulShapes{"M8192_N960_K320", "M4096_N4096_K4096"};

// Every path at every shape, in registry order (shape by shape). A path whose image runs is
// checked (`scope`); one that does not is neither checked nor timed, as in a run.
inline std::vector<OperatorResult> fake_results(const std::string& family, const std::vector<FakePath>& paths,
                                                const std::vector<std::string>& shapes = kMatmulShapes,
                                                CheckScope scope = CheckScope::Full) {
  std::vector<OperatorResult> results;
  for (const auto& shape : shapes) {
    for (const auto& p : paths) {
      OperatorResult r = named_result(family + "/" + p.name + "/" + p.dtype + "/" + shape,
                                      p.image == ImageOutcome::Library ? Impl::CuBLAS : Impl::Own);
      r.image.status = p.image;
      r.image.label = p.label;
      if (r.image.runs()) {
        r.correctness = passed_check(1e-3);
        r.correctness->scope = scope;
        r.correctness->passed = p.correct;
        if (p.median_ms && p.correct) {
          r.timing = TimingResult{};
          r.timing->median_ms = *p.median_ms;
        }
      }
      results.push_back(std::move(r));
    }
  }
  return results;
}

// An H200 with a 9.0a build: every path runs, the Hopper kernel fastest; untimed as under --quick.
inline std::vector<FakePath> hopper_matmul(bool timed = true) {
  auto ms = [timed](double v) { return timed ? std::optional(v) : std::nullopt; };
  return {{"gemm_simt", "f32", ImageOutcome::Sass, "sass sm_90a", ms(9.0)},
          {"gemm_tc", "f16", ImageOutcome::Sass, "sass sm_90a", ms(2.2)},
          {"gemm_wgmma", "f16", ImageOutcome::Sass, "sass sm_90a", ms(1.0)},
          {"gemm_cublas", "f16", ImageOutcome::Library, "cuBLAS 13.1.0", ms(0.95)}};
}

// An RTX 4090 (CC 8.9) with a "9.0a;8.0+PTX" build: sm_90a code runs on CC 9.0 only, so the wgmma
// path is unsupported; the others run from SASS sm_80.
inline std::vector<FakePath> ada_matmul(const std::string& dtype) {
  return {{"gemm_simt", "f32", ImageOutcome::Sass, "sass sm_80", 6.0},
          {"gemm_tc", dtype, ImageOutcome::Sass, "sass sm_80", 1.5},
          {"gemm_wgmma", dtype, ImageOutcome::Unsupported, "unsupported", std::nullopt},
          {"gemm_cublas", dtype, ImageOutcome::Library, "cuBLAS 13.1.0", 1.2}};
}

// A build with no image of its own for the device: only the library runs.
inline std::vector<FakePath> no_image_matmul() {
  return {{"gemm_simt", "f32", ImageOutcome::Missing, "missing", std::nullopt},
          {"gemm_tc", "f16", ImageOutcome::Missing, "missing", std::nullopt},
          {"gemm_wgmma", "f16", ImageOutcome::Missing, "missing", std::nullopt},
          {"gemm_cublas", "f16", ImageOutcome::Library, "cuBLAS 13.1.0", 1.0}};
}

}  // namespace archbench::testing_support
