#include "harness/report/html_heatmap.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/report/html_escape.hpp"
#include "harness/report/html_page.hpp"

namespace archbench::html {

std::string svg_heatmap(const HeatMap& map) {
  constexpr int kRow = 16, kCol = 56, kTop = 22;
  size_t longest = 10;
  for (const auto& r : map.rows) longest = std::max(longest, r.size());
  const int left = static_cast<int>(std::min<size_t>(longest, 70) * 7) + 8;
  const int width = left + kCol * static_cast<int>(map.columns.size()) + 4;
  const int height = kTop + kRow * static_cast<int>(map.rows.size()) + 4;
  std::string svg = fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" width="{}" height="{}" viewBox="0 0 {} {}" role="img" aria-label="image verdicts per operator and dtype">)",
                                width, height, width, height);
  svg += "\n";
  for (size_t c = 0; c < map.columns.size(); ++c) {
    svg += fmt::format(R"(<text x="{}" y="15" text-anchor="middle">{}</text>)", left + kCol * static_cast<int>(c) + kCol / 2,
                       escape(map.columns[c]));
  }
  for (size_t r = 0; r < map.rows.size(); ++r) {
    const int y = kTop + kRow * static_cast<int>(r);
    svg += fmt::format("\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", left - 6, y + 12, escape(map.rows[r]));
    for (size_t c = 0; c < map.columns.size(); ++c) {
      auto it = map.cells.find({r, c});
      const int x = left + kCol * static_cast<int>(c);
      if (it == map.cells.end()) {
        svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#f6f8fa" stroke="#ffffff"/>)", x, y, kCol, kRow);
        continue;
      }
      svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="#ffffff" data-status="{}"><title>{}</title></rect>)",
                         x, y, kCol, kRow, status_color(it->second.verdict), escape(it->second.verdict.name()),
                         escape(it->second.tooltip));
    }
  }
  svg += "\n</svg>\n";
  return svg;
}

}  // namespace archbench::html
