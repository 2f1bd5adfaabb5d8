#include "harness/report/html_bar_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "harness/report/html_escape.hpp"

namespace archbench::html {

std::string svg_bar_chart(const std::vector<Bar>& bars, std::string_view unit, double scale_min) {
  constexpr int kRow = 18, kPlot = 420, kTop = 6;
  double scale = scale_min;
  size_t longest = 10;
  for (const auto& b : bars) {
    if (std::isfinite(b.value)) scale = std::max(scale, b.value);
    if (b.marker && std::isfinite(*b.marker)) scale = std::max(scale, *b.marker);
    longest = std::max(longest, b.label.size());
  }
  const int left = static_cast<int>(std::min<size_t>(longest, 70) * 7) + 8;
  const int width = left + kPlot + 70;
  const int height = kTop + kRow * static_cast<int>(bars.size()) + 20;
  auto x_of = [&](double v) { return left + static_cast<int>(std::lround(std::clamp(v / scale, 0.0, 1.0) * kPlot)); };
  std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" class="bars" width="{}" height="{}" viewBox="0 0 {} {}" role="img">)",
                                width, height, width, height);
  svg += "\n";
  // Gridlines at quarters of the scale, labelled under the plot.
  const int bottom = kTop + kRow * static_cast<int>(bars.size());
  for (int q = 0; q <= 4; ++q) {
    const double v = scale * q / 4;
    svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#d0d7de"/><text x="{0}" y="{3}" text-anchor="middle">{4:.0f}{5}</text>)",
                       x_of(v), kTop, bottom, bottom + 14, v, escape(unit));
  }
  for (size_t i = 0; i < bars.size(); ++i) {
    const auto& b = bars[i];
    const int y = kTop + kRow * static_cast<int>(i);
    const double v = std::isfinite(b.value) ? b.value : 0;
    svg += fmt::format("\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", left - 6, y + 13, escape(b.label));
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>)", left, y + 2,
                       std::max(1, x_of(v) - left), kRow - 4, escape(b.color),
                       escape(b.tooltip.empty() ? fmt::format("{:.1f}{}", v, unit) : b.tooltip));
    svg += fmt::format(R"(<text x="{}" y="{}">{:.0f}{}</text>)", x_of(v) + 4, y + 13, v, escape(unit));
    if (b.marker && std::isfinite(*b.marker)) {
      svg += fmt::format(R"(<line class="marker" x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#1b1f24" stroke-width="2"><title>baseline {3:.1f}{4}</title></line>)",
                         x_of(*b.marker), y, y + kRow, *b.marker, escape(unit));
    }
  }
  svg += "\n</svg>\n";
  return svg;
}

}  // namespace archbench::html
