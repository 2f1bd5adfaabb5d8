// Text and attribute escaping for the HTML/SVG writers: every name that reaches a page (operator
// ids, device names, causes, environment variables) passes through here, so a hostile name such
// as "<script>" is shown as text and never parsed as markup.
#pragma once

#include <string>
#include <string_view>

namespace archbench::html {

// Escapes & < > " ' for use in element text and in double- or single-quoted attribute values.
[[nodiscard]] std::string escape(std::string_view text);

}  // namespace archbench::html
