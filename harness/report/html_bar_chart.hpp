// An SVG horizontal bar chart (one family's % of ceiling per operator), with an optional marker
// per bar (the baseline's value) drawn as a vertical tick across the bar.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archbench::html {

struct Bar {
  std::string label;              // plain text; escaped by the writer
  double value = 0;
  std::optional<double> marker;   // e.g. the baseline's value
  std::string color = "#6f9fd8";
  std::string tooltip;
};

// `unit` follows each value ("%"); the scale runs from 0 to max(`scale_min`, the largest value).
[[nodiscard]] std::string svg_bar_chart(const std::vector<Bar>& bars, std::string_view unit, double scale_min);

}  // namespace archbench::html
