// Plain-text layout for the reports a terminal shows: every line of `run`, `list`, `inspect` and
// `doctor` fits kColumns columns. Long text is wrapped (at spaces first, then after '_', '/', ',',
// ';' or ':' inside a long word, then anywhere) or shortened with "..."; the full text stays in
// the JSON. Widths count UTF-8 code points, not bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace archbench::text {

inline constexpr size_t kColumns = 120;

// Columns `s` takes on a terminal (one per UTF-8 code point).
[[nodiscard]] size_t width(std::string_view s);

// `s` cut to at most `max` columns, ending in "..." when it was cut.
[[nodiscard]] std::string shorten(std::string_view s, size_t max);

// One paragraph (no '\n') as lines of at most `columns` columns: the first starts with `first`,
// the others with `next`. With max_lines > 0, a paragraph that needs more ends its last line in
// " ..." instead.
[[nodiscard]] std::vector<std::string> wrap_lines(std::string_view paragraph, size_t columns, std::string_view first,
                                                  std::string_view next, size_t max_lines = 0);

// The same, each line ending in '\n'.
[[nodiscard]] std::string wrap(std::string_view paragraph, size_t columns, std::string_view first,
                               std::string_view next, size_t max_lines = 0);

// Every line of `text` wrapped to `columns`, each continuation indented by the line's own leading
// spaces plus `extra_indent`; the result ends in '\n' when `text` does.
[[nodiscard]] std::string wrap_text(std::string_view text, size_t columns = kColumns, size_t extra_indent = 2);

// A line of fields joined by `separator` (" | "): as many whole fields per line as fit, the
// following lines starting with `next`; a field longer than a line is wrapped on its own.
[[nodiscard]] std::string wrap_fields(const std::vector<std::string>& fields, std::string_view separator,
                                      size_t columns, std::string_view first, std::string_view next);

// Table layout: each column as wide as its widest cell, unless the table would be wider than
// `columns`; then the wrappable columns narrow (the widest first, to at least their minimum) and
// their cells continue on the next lines of the row.
struct TableColumn {
  std::string header;
  bool right = false;     // right-aligned (numbers)
  bool wrap = false;      // may narrow; its cells then wrap
  size_t min_width = 8;   // narrowest a wrappable column becomes
};

class Table {
 public:
  Table(std::vector<TableColumn> columns, std::string indent = "", std::string gap = "  ");
  void add_row(std::vector<std::string> cells);
  // A line of its own between rows (a group title), not indented.
  void add_group(std::string title);
  [[nodiscard]] std::string render(size_t columns = kColumns) const;

 private:
  struct Line {
    bool group = false;
    std::vector<std::string> cells;
  };
  std::vector<TableColumn> columns_;
  std::string indent_, gap_;
  std::vector<Line> lines_;
};

}  // namespace archbench::text
