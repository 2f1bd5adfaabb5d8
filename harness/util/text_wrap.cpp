#include "harness/util/text_wrap.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace archbench::text {
namespace {

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Bytes of the first `cols` columns of `s` (never splitting a code point).
size_t bytes_of_columns(std::string_view s, size_t cols) {
  size_t i = 0, seen = 0;
  while (i < s.size()) {
    if (!continuation_byte(s[i])) {
      if (seen == cols) break;
      ++seen;
    }
    ++i;
  }
  return i;
}

// Where to cut a word too long for `room` columns: after the last '_', '/', ',', ';' or ':'
// that keeps at least a third of the room in use, else at the room itself. Returns bytes.
size_t cut_point(std::string_view word, size_t room) {
  const size_t limit = bytes_of_columns(word, room);
  for (size_t i = limit; i > 0; --i) {
    const char c = word[i - 1];
    if ((c == '_' || c == '/' || c == ',' || c == ';' || c == ':') && width(word.substr(0, i)) * 3 >= room) return i;
  }
  return std::max<size_t>(limit, 1);
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t i = s.find_first_not_of(' '); i != std::string_view::npos; i = s.find_first_not_of(' ', i)) {
    const size_t end = std::min(s.find(' ', i), s.size());
    out.push_back(s.substr(i, end - i));
    i = end;
  }
  return out;
}

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string pad(const std::string& s, size_t w, bool right) {
  const size_t have = width(s);
  if (have >= w) return s;
  return right ? std::string(w - have, ' ') + s : s + std::string(w - have, ' ');
}

}  // namespace

size_t width(std::string_view s) {
  return static_cast<size_t>(std::ranges::count_if(s, [](char c) { return !continuation_byte(c); }));
}

std::string shorten(std::string_view s, size_t max) {
  if (width(s) <= max) return std::string(s);
  if (max <= 3) return std::string(max, '.');
  return std::string(s.substr(0, bytes_of_columns(s, max - 3))) + "...";
}

std::vector<std::string> wrap_lines(std::string_view paragraph, size_t columns, std::string_view first,
                                    std::string_view next, size_t max_lines) {
  std::vector<std::string> lines;
  std::string line(first);
  bool empty = true;  // nothing but the prefix on `line` yet
  auto room = [&] {
    const size_t prefix = width(lines.empty() ? first : next);
    return columns > prefix ? columns - prefix : size_t{20};
  };
  auto used = [&] { return width(line) - width(lines.empty() ? first : next); };
  auto new_line = [&] {
    lines.push_back(rtrim(std::move(line)));
    line = std::string(next);
    empty = true;
  };
  size_t i = 0;
  while (i < paragraph.size()) {
    const size_t word_start = paragraph.find_first_not_of(' ', i);
    if (word_start == std::string_view::npos) break;
    const std::string_view space = paragraph.substr(i, word_start - i);
    size_t word_end = paragraph.find(' ', word_start);
    if (word_end == std::string_view::npos) word_end = paragraph.size();
    std::string_view word = paragraph.substr(word_start, word_end - word_start);
    i = word_end;
    if (!empty && used() + width(space) + width(word) > room()) new_line();
    if (!empty) line += space;
    while (width(word) > room() - (empty ? 0 : used())) {  // longer than a whole line: cut it
      if (!empty) new_line();
      const size_t cut = cut_point(word, room());
      line += word.substr(0, cut);
      word.remove_prefix(cut);
      new_line();
    }
    if (!word.empty()) {
      line += word;
      empty = false;
    }
  }
  if (!empty || lines.empty()) lines.push_back(rtrim(std::move(line)));
  if (max_lines > 0 && lines.size() > max_lines) {
    lines.resize(max_lines);
    std::string& last = lines.back();
    if (width(last) + 4 > columns) last = rtrim(last.substr(0, bytes_of_columns(last, columns > 4 ? columns - 4 : 0)));
    last += " ...";
  }
  return lines;
}

std::string wrap(std::string_view paragraph, size_t columns, std::string_view first, std::string_view next,
                 size_t max_lines) {
  std::string out;
  for (const auto& l : wrap_lines(paragraph, columns, first, next, max_lines)) out += l + "\n";
  return out;
}

std::string wrap_text(std::string_view text, size_t columns, size_t extra_indent) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    const bool newline = end != std::string_view::npos;
    if (!newline) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const size_t body = std::min(line.find_first_not_of(' '), line.size());
    const std::string indent(body, ' ');
    const auto lines = wrap_lines(line.substr(body), columns, indent, indent + std::string(extra_indent, ' '));
    for (size_t k = 0; k < lines.size(); ++k) out += lines[k] + (k + 1 < lines.size() || newline ? "\n" : "");
    start = end + 1;
  }
  return out;
}

std::string wrap_fields(const std::vector<std::string>& fields, std::string_view separator, size_t columns,
                        std::string_view first, std::string_view next) {
  std::string out, line(first);
  bool empty = true;
  for (const auto& f : fields) {
    if (!empty && width(line) + width(separator) + width(f) <= columns) {
      line += std::string(separator) + f;
      continue;
    }
    if (!empty) {
      out += line + "\n";
      line = std::string(next);
    }
    if (width(line) + width(f) <= columns) {
      line += f;
      empty = false;
      continue;
    }
    auto wrapped = wrap_lines(f, columns, line, next);  // a field longer than a line
    line = wrapped.back();
    wrapped.pop_back();
    for (const auto& w : wrapped) out += w + "\n";
    empty = false;
  }
  return out + line + "\n";
}

Table::Table(std::vector<TableColumn> columns, std::string indent, std::string gap)
    : columns_(std::move(columns)), indent_(std::move(indent)), gap_(std::move(gap)) {}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  lines_.push_back({false, std::move(cells)});
}

void Table::add_group(std::string title) { lines_.push_back({true, {std::move(title)}}); }

std::string Table::render(size_t columns) const {
  const size_t n = columns_.size();
  std::vector<size_t> w(n);
  for (size_t c = 0; c < n; ++c) {
    w[c] = width(columns_[c].header);
    for (const auto& l : lines_)
      if (!l.group) w[c] = std::max(w[c], width(l.cells[c]));
  }
  auto total = [&] {
    size_t t = width(indent_) + (n > 0 ? (n - 1) * width(gap_) : 0);
    for (const size_t x : w) t += x;
    return t;
  };
  // First the headers that are wider than every cell of their column: they may take two lines.
  for (size_t c = 0; c < n && total() > columns; ++c) {
    if (!columns_[c].wrap) continue;
    size_t cells = 0, word = 0;
    for (const auto& l : lines_)
      if (!l.group) cells = std::max(cells, width(l.cells[c]));
    for (const auto& part : split_words(columns_[c].header)) word = std::max(word, width(part));
    const size_t floor = std::max({cells, word, columns_[c].min_width});
    if (w[c] > floor) w[c] -= std::min(w[c] - floor, total() - columns);
  }
  while (total() > columns) {  // then narrow the widest wrappable column by one
    size_t widest = n;
    for (size_t c = 0; c < n; ++c) {
      if (columns_[c].wrap && w[c] > columns_[c].min_width && (widest == n || w[c] > w[widest])) widest = c;
    }
    if (widest == n) break;  // nothing left to narrow: as narrow as it gets
    --w[widest];
  }
  auto render_row = [&](const std::vector<std::string>& cells) {
    std::vector<std::vector<std::string>> parts(n);
    size_t height = 1;
    for (size_t c = 0; c < n; ++c) {
      parts[c] = width(cells[c]) <= w[c] ? std::vector<std::string>{cells[c]} : wrap_lines(cells[c], w[c], "", "");
      height = std::max(height, parts[c].size());
    }
    std::string s;
    for (size_t k = 0; k < height; ++k) {
      std::string line = indent_;
      for (size_t c = 0; c < n; ++c) {
        if (c > 0) line += gap_;
        line += pad(k < parts[c].size() ? parts[c][k] : std::string(), w[c], columns_[c].right);
      }
      s += rtrim(std::move(line)) + "\n";
    }
    return s;
  };
  std::vector<std::string> header;
  for (const auto& c : columns_) header.push_back(c.header);
  std::string out = render_row(header);
  for (const auto& l : lines_) out += l.group ? shorten(l.cells[0], columns) + "\n" : render_row(l.cells);
  return out;
}

}  // namespace archbench::text
