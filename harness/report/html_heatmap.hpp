// An SVG heat map of image verdicts: one row per operator (family/name/shape), one column per
// dtype, each cell coloured by its status with the verdict as a tooltip (<title>).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/result/operator_verdict.hpp"

namespace archbench::html {

struct HeatCell {
  OperatorVerdict verdict;  // its colour, and its name in the cell's tooltip
  std::string tooltip;  // plain text; escaped by the writer
};

struct HeatMap {
  std::vector<std::string> rows, columns;
  std::map<std::pair<size_t, size_t>, HeatCell> cells;  // (row, column); absent = no such operator
};

[[nodiscard]] std::string svg_heatmap(const HeatMap& map);

}  // namespace archbench::html
