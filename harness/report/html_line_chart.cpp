#include "harness/report/html_line_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "harness/report/html_escape.hpp"

namespace archbench::html {

std::string svg_line_chart(const std::vector<std::optional<double>>& points, std::string_view unit,
                           const std::vector<LineMarker>& markers, const std::vector<Level>& levels) {
  constexpr int kLeft = 88, kTop = 30, kPlotW = 640, kPlotH = 160, kBottom = 24;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& p : points) {
    if (p && std::isfinite(*p)) lo = std::min(lo, *p), hi = std::max(hi, *p);
  }
  for (const auto& l : levels) lo = std::min(lo, l.value), hi = std::max(hi, l.value);
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  const double pad = std::max((hi - lo) * 0.1, std::abs(hi) * 0.01 + 1e-12);
  lo -= pad;
  hi += pad;
  const size_t n = std::max<size_t>(points.size(), 2);
  auto x_of = [&](double i) { return kLeft + i * kPlotW / static_cast<double>(n - 1); };
  auto y_of = [&](double v) { return kTop + (hi - v) / (hi - lo) * kPlotH; };
  const int width = kLeft + kPlotW + 16, height = kTop + kPlotH + kBottom;
  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="trend" width="{0}" height="{1}" viewBox="0 0 {0} {1}" role="img">)",
      width, height);
  for (int q = 0; q <= 4; ++q) {  // value gridlines
    const double v = lo + (hi - lo) * q / 4;
    svg += fmt::format(R"(<line x1="{0}" y1="{1:.1f}" x2="{2}" y2="{1:.1f}" stroke="#d0d7de"/><text x="{3}" y="{4:.1f}" text-anchor="end">{5:.4g}{6}</text>)",
                       kLeft, y_of(v), kLeft + kPlotW, kLeft - 6, y_of(v) + 4, v, escape(unit));
  }
  const size_t every = std::max<size_t>(1, points.size() / 10);  // run-index labels
  for (size_t i = 0; i < points.size(); i += every) {
    svg += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle">{}</text>)", x_of(static_cast<double>(i)),
                       kTop + kPlotH + 16, i + 1);
  }
  for (const auto& m : markers) {
    const double x = x_of(static_cast<double>(m.at) - 0.5);
    svg += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="{3}" stroke-width="1.5"{4}/>)", x, kTop - 4,
                       kTop + kPlotH, m.color, m.dashed ? R"( stroke-dasharray="4 3")" : "");
    svg += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle" fill="{}">{}</text>)", x, kTop - 8, m.color,
                       escape(m.label));
  }
  for (const auto& l : levels) {
    svg += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#59a14f" stroke-width="2"/>)",
                       x_of(static_cast<double>(l.from)), y_of(l.value), x_of(static_cast<double>(l.to) - 1), y_of(l.value));
  }
  std::string path;
  for (size_t i = 0; i < points.size(); ++i) {
    if (!points[i] || !std::isfinite(*points[i])) {
      path += " ";
      continue;
    }
    path += fmt::format("{}{:.1f},{:.1f}", path.empty() || path.back() == ' ' ? "M" : " L", x_of(static_cast<double>(i)),
                        y_of(*points[i]));
  }
  svg += fmt::format(R"(<path d="{}" fill="none" stroke="#4e79a7" stroke-width="1.5"/>)", path);
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i] && std::isfinite(*points[i])) {
      svg += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.5" fill="#4e79a7"><title>run {}: {:.4g}{}</title></circle>)",
                         x_of(static_cast<double>(i)), y_of(*points[i]), i + 1, *points[i], escape(unit));
    }
  }
  return svg + "</svg>\n";
}

}  // namespace archbench::html
