// The frame of every archbench HTML page: one self-contained document (inline CSS, no scripts,
// no external resources), so it opens offline and from a CI artifact as it is.
#pragma once

#include <string>
#include <string_view>

namespace archbench::html {

// `body` is trusted markup built by the writers; `title` is escaped here.
[[nodiscard]] std::string page(std::string_view title, std::string_view body);

// The CSS class of an image status ("sass", "missing", ...), shared by tables and charts.
[[nodiscard]] std::string status_class(std::string_view status);
// The fill colour of an image status in SVG charts (the same palette as the CSS classes).
[[nodiscard]] std::string status_color(std::string_view status);

}  // namespace archbench::html
