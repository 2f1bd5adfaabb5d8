// An SVG heat map of image verdicts: one row per operator (family/name/shape), one column per
// dtype, each cell coloured by its status with the verdict as a tooltip (<title>).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace archbench::html {

struct HeatCell {
  std::string status;   // image status, or "wrong" for a wrong result with an image
  std::string tooltip;  // plain text; escaped by the writer
};

struct HeatMap {
  std::vector<std::string> rows, columns;
  std::map<std::pair<size_t, size_t>, HeatCell> cells;  // (row, column); absent = no such operator
};

[[nodiscard]] std::string svg_heatmap(const HeatMap& map);

}  // namespace archbench::html
