// The frame of every archbench HTML page: one self-contained document (inline CSS, no scripts,
// no external resources), so it opens offline and from a CI artifact as it is.
#pragma once

#include <string>
#include <string_view>

#include "harness/result/operator_verdict.hpp"

namespace archbench::html {

// `body` is trusted markup built by the writers; `title` is escaped here.
[[nodiscard]] std::string page(std::string_view title, std::string_view body);

// The CSS class of an operator's verdict ("st-sass", "st-missing", "st-wrong", ...), shared by
// tables and charts; "st-none" where nothing was probed, "st-error" for an absent operator.
[[nodiscard]] std::string status_class(const OperatorVerdict& verdict);
// The fill colour of a verdict in SVG charts (the same palette as the CSS classes).
[[nodiscard]] std::string status_color(const OperatorVerdict& verdict);
// The verdicts a legend shows, in its order: sass, library, ptx-jit, unsupported, missing, wrong.
[[nodiscard]] std::string status_legend();

}  // namespace archbench::html
