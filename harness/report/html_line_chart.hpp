// An SVG line chart of one series over run indices (a history's medians), with vertical markers
// at chosen indices (change points, environment changes) and horizontal segment levels.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archbench::html {

struct LineMarker {
  size_t at = 0;           // the index of the point the marker stands before
  std::string label;       // plain text, escaped by the writer; drawn at the top
  std::string color = "#b3261e";
  bool dashed = true;
};

struct Level {              // a horizontal line over [from, to): a segment's median
  size_t from = 0, to = 0;
  double value = 0;
};

// points[i] is drawn at x = i; a missing point (nullopt) is a gap. `unit` follows the axis values.
[[nodiscard]] std::string svg_line_chart(const std::vector<std::optional<double>>& points, std::string_view unit,
                                         const std::vector<LineMarker>& markers, const std::vector<Level>& levels);

}  // namespace archbench::html
