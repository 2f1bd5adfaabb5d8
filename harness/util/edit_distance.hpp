// Levenshtein distance, for "did you mean" suggestions (unknown options, device names).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace archbench {

[[nodiscard]] inline size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The candidate nearest to `word`, if it is within `max_distance` edits and no other candidate is
// as near (a tie suggests nothing).
[[nodiscard]] inline std::optional<std::string> nearest(std::string_view word, const std::vector<std::string>& candidates,
                                                        size_t max_distance) {
  std::optional<std::string> best;
  size_t best_distance = max_distance + 1;
  bool tie = false;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
      tie = false;
    } else if (d == best_distance && best && *best != c) {
      tie = true;
    }
  }
  if (tie) return std::nullopt;
  return best;
}

}  // namespace archbench
