#include "harness/report/html_roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "harness/report/html_escape.hpp"

namespace archbench::html {

std::string svg_roofline(const std::vector<Roof>& roofs, double dram_gbps, const std::vector<RooflinePoint>& points) {
  constexpr int kLeft = 60, kTop = 12, kWidth = 560, kHeight = 340, kRight = 150;
  auto placeable = [](const RooflinePoint& p) {
    return std::isfinite(p.intensity) && std::isfinite(p.tflops) && p.intensity > 0 && p.tflops > 0;
  };
  // Axis ranges in decades, wide enough for every point and roof.
  double x_lo = 1e-1, x_hi = 1e3, y_lo = 1e-1, y_hi = 1e2;
  for (const auto& p : points) {
    if (!placeable(p)) continue;
    x_lo = std::min(x_lo, p.intensity), x_hi = std::max(x_hi, p.intensity);
    y_lo = std::min(y_lo, p.tflops), y_hi = std::max(y_hi, p.tflops);
  }
  for (const auto& r : roofs) if (r.peak_tflops > 0 && std::isfinite(r.peak_tflops)) y_hi = std::max(y_hi, r.peak_tflops);
  const double lx0 = std::floor(std::log10(x_lo)), lx1 = std::ceil(std::log10(x_hi));
  const double ly0 = std::floor(std::log10(y_lo)), ly1 = std::ceil(std::log10(y_hi * 1.5));
  auto px = [&](double x) { return kLeft + (std::log10(x) - lx0) / (lx1 - lx0) * kWidth; };
  auto py = [&](double y) { return kTop + kHeight - (std::log10(y) - ly0) / (ly1 - ly0) * kHeight; };

  const int w = kLeft + kWidth + kRight, h = kTop + kHeight + 40;
  std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" class="roofline" width="{}" height="{}" viewBox="0 0 {} {}" role="img" aria-label="roofline">)",
                                w, h, w, h);
  svg += fmt::format("\n<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fbfcfd\" stroke=\"#8c959f\"/>", kLeft, kTop, kWidth, kHeight);
  for (double d = lx0; d <= lx1; ++d) {
    const double x = px(std::pow(10.0, d));
    svg += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#e1e4e8"/><text x="{0:.1f}" y="{3}" text-anchor="middle">{4:g}</text>)",
                       x, kTop, kTop + kHeight, kTop + kHeight + 14, std::pow(10.0, d));
  }
  for (double d = ly0; d <= ly1; ++d) {
    const double y = py(std::pow(10.0, d));
    svg += fmt::format(R"(<line x1="{1}" y1="{0:.1f}" x2="{2}" y2="{0:.1f}" stroke="#e1e4e8"/><text x="{3}" y="{4:.1f}" text-anchor="end">{5:g}</text>)",
                       y, kLeft, kLeft + kWidth, kLeft - 4, y + 4, std::pow(10.0, d));
  }
  svg += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">arithmetic intensity (FLOP/byte)</text>)", kLeft + kWidth / 2, h - 6);
  svg += fmt::format(R"svg(<text x="14" y="{}" text-anchor="middle" transform="rotate(-90 14 {})">TFLOP/s</text>)svg",
                     kTop + kHeight / 2, kTop + kHeight / 2);
  // Roofs: the bandwidth slope up to the ridge point, then flat at the peak.
  const double x_min = std::pow(10.0, lx0), x_max = std::pow(10.0, lx1);
  std::vector<Roof> sorted = roofs;  // highest first, so labels can be pushed apart downwards
  std::ranges::sort(sorted, [](const Roof& a, const Roof& b) { return a.peak_tflops > b.peak_tflops; });
  double last_label_y = -1e9;
  for (const auto& r : sorted) {
    if (!(r.peak_tflops > 0) || !(dram_gbps > 0)) continue;
    const double bw_tflops_per_ai = dram_gbps / 1000.0;  // TFLOP/s per (FLOP/byte)
    const double ridge = r.peak_tflops / bw_tflops_per_ai;
    const double x_start = std::max(x_min, std::pow(10.0, ly0) / bw_tflops_per_ai);
    std::string path = fmt::format("M{:.1f},{:.1f}", px(x_start), py(std::max(std::pow(10.0, ly0), x_start * bw_tflops_per_ai)));
    if (ridge < x_max) path += fmt::format(" L{:.1f},{:.1f}", px(std::max(ridge, x_start)), py(r.peak_tflops));
    path += fmt::format(" L{:.1f},{:.1f}", px(x_max), py(std::min(r.peak_tflops, x_max * bw_tflops_per_ai)));
    svg += fmt::format("\n<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"><title>{}</title></path>", path,
                       escape(r.color), escape(r.label));
    const double label_y = std::max(py(std::min(r.peak_tflops, x_max * bw_tflops_per_ai)) + 4, last_label_y + 12);
    last_label_y = label_y;
    svg += fmt::format(R"(<text x="{}" y="{:.1f}" fill="{}">{}</text>)", kLeft + kWidth + 6, label_y, escape(r.color),
                       escape(r.label));
  }
  size_t left_out = 0;
  for (const auto& p : points) {
    if (!placeable(p)) {
      ++left_out;
      continue;
    }
    svg += fmt::format("\n<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" fill-opacity=\"0.8\" stroke=\"#1b1f24\" stroke-width=\"0.5\"><title>{} ({:.3g} FLOP/B, {:.3g} TFLOP/s)</title></circle>",
                       px(p.intensity), py(p.tflops), escape(p.color), escape(p.label), p.intensity, p.tflops);
  }
  svg += fmt::format(R"(<text x="{}" y="{}">DRAM {:.0f} GB/s</text>)", kLeft + 6, kTop + 14, dram_gbps);
  if (left_out > 0) {
    svg += fmt::format(R"(<text x="{}" y="{}">{} operator(s) without FLOPs or timing not shown</text>)", kLeft + 6, kTop + 28, left_out);
  }
  svg += "\n</svg>\n";
  return svg;
}

}  // namespace archbench::html
