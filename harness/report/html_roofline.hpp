// An SVG roofline plot on log-log axes: arithmetic intensity (FLOP per DRAM byte) against the
// achieved TFLOP/s of each operator, under the roofs min(peak, intensity x bandwidth) built
// from the device's measured ceilings.
#pragma once

#include <string>
#include <vector>

namespace archbench::html {

struct Roof {
  std::string label;   // "f16 680 TFLOP/s"
  double peak_tflops = 0;
  std::string color;
};

struct RooflinePoint {
  std::string label;   // the operator id; escaped by the writer
  double intensity = 0;  // flops / bytes
  double tflops = 0;
  std::string color;
};

// Points with a non-positive or non-finite coordinate cannot be placed on log axes and are left
// out; the caption says how many.
[[nodiscard]] std::string svg_roofline(const std::vector<Roof>& roofs, double dram_gbps, const std::vector<RooflinePoint>& points);

}  // namespace archbench::html
