#include "harness/ops/id_filter.hpp"

#include "harness/util/edit_distance.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

namespace archbench {
namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    parts.emplace_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

bool has_wildcard(std::string_view glob) { return glob.find_first_of("*?[") != std::string_view::npos; }

bool matches_any(const std::string& glob, const std::vector<std::string>& names) {
  return std::ranges::any_of(names, [&](const std::string& n) { return fnmatch(glob.c_str(), n.c_str(), 0) == 0; });
}

// One glob's repair: a literal word is looked for inside names; a misspelt '/'-part is replaced
// by the nearest part the names have (at most a quarter of its letters different).
std::optional<std::string> repair(const std::string& glob, const std::vector<std::string>& names,
                                  const std::set<std::string>& parts) {
  if (glob.empty()) return std::nullopt;
  if (!has_wildcard(glob)) {
    if (const std::string inside = "*" + glob + "*"; matches_any(inside, names)) return inside;
  }
  auto segments = split(glob, '/');
  bool changed = false;
  for (auto& seg : segments) {
    if (seg.empty() || has_wildcard(seg) || parts.contains(seg)) continue;
    const auto best = nearest(seg, {parts.begin(), parts.end()}, std::max<size_t>(1, seg.size() / 4));
    if (!best) {
      changed = false;
      break;
    }
    seg = *best;
    changed = true;
  }
  if (changed) {
    std::string fixed;
    for (size_t i = 0; i < segments.size(); ++i) fixed += (i ? "/" : "") + segments[i];
    if (matches_any(fixed, names)) return fixed;
    if (segments.size() == 1 && matches_any("*" + fixed + "*", names)) return "*" + fixed + "*";
  }
  // The word inside a glob such as '*gemmm*': with one letter fewer, or the nearest word of the names.
  if (glob.find_first_of("[/") != std::string::npos) return std::nullopt;
  std::string core;
  std::ranges::copy_if(glob, std::back_inserter(core), [](char c) { return c != '*' && c != '?'; });
  if (core.size() < 3) return std::nullopt;
  for (size_t i = 0; i < core.size(); ++i) {
    if (const std::string inside = "*" + core.substr(0, i) + core.substr(i + 1) + "*"; matches_any(inside, names)) {
      return inside;
    }
  }
  return std::nullopt;
}

}  // namespace

bool id_matches(std::string_view filter, std::string_view id) {
  const std::string subject(id);
  for (const auto& glob : split(filter, ',')) {
    if (!glob.empty() && fnmatch(glob.c_str(), subject.c_str(), 0) == 0) return true;
  }
  return false;
}

std::optional<std::string> suggest_filter(std::string_view filter, const std::vector<std::string>& names) {
  std::set<std::string> parts;
  for (const auto& n : names) {
    for (auto& p : split(n, '/')) parts.insert(std::move(p));
  }
  std::vector<std::string> repaired;
  for (const auto& glob : split(filter, ',')) {
    if (auto r = repair(glob, names, parts)) repaired.push_back(std::move(*r));
  }
  if (repaired.empty()) return std::nullopt;
  std::string s;
  for (const auto& r : repaired) s += (s.empty() ? "" : ",") + r;
  return s;
}

std::string no_match_message(std::string_view filter, const std::vector<std::string>& names, std::string_view what,
                             std::string_view where) {
  std::string s = fmt::format("no {} matches --filter '{}'", what, filter);
  if (auto hint = suggest_filter(filter, names)) s += fmt::format("; did you mean --filter '{}'?", *hint);
  else if (!has_wildcard(filter)) s += fmt::format(" (a glob matches whole names: '*{}*' matches inside them)", filter);
  return s + fmt::format("; {}", where);
}

}  // namespace archbench
