#include "harness/report/path_summary.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace archbench {
namespace {

const PathCandidate* find_path(const PathChoice& c, const std::string& name) {
  const auto it = std::ranges::find(c.own, name, &PathCandidate::name);
  return it == c.own.end() ? nullptr : &*it;
}

// How a path fared on one shape where it was not chosen: "timed" (then a ratio), "runs" (could
// have run, not timed), or why it could not run: its verdict, or "absent" from the run.
std::string status_of(const PathCandidate* c) {
  if (c == nullptr) return "absent";
  if (c->usable) return c->time_ratio ? "timed" : "runs";
  const auto name = c->verdict.name();
  return name.empty() ? "not probed" : std::string(name);
}

std::string ratio_text(double ratio) {
  const bool slower = ratio >= 1;
  const double x = slower ? ratio : 1 / ratio;
  return (x < 10 ? fmt::format("{:.2f}x", x) : fmt::format("{:.0f}x", x)) + (slower ? " slower" : " faster");
}

// "gemm_simt 9.13x slower on 6/8 and absent on 2/8": the outcomes of one path over the shapes
// where it was not chosen, each with its share of all `shapes` unless it covers them all.
std::string path_text(const std::string& name, const std::vector<const PathCandidate*>& not_chosen, size_t shapes) {
  std::vector<std::pair<std::string, std::vector<const PathCandidate*>>> by_status;  // in order of appearance
  for (const PathCandidate* c : not_chosen) {
    const std::string status = status_of(c);
    auto it = std::ranges::find(by_status, status, &std::pair<std::string, std::vector<const PathCandidate*>>::first);
    if (it == by_status.end()) it = by_status.insert(by_status.end(), {status, {}});
    it->second.push_back(c);
  }
  std::vector<std::string> fragments;
  for (const auto& [status, cs] : by_status) {
    std::string s = status;
    if (cs.front() != nullptr && cs.front()->usable && cs.front()->time_ratio) {  // "timed"
      double log_sum = 0;
      for (const PathCandidate* c : cs) log_sum += std::log(*c->time_ratio);
      s = ratio_text(std::exp(log_sum / static_cast<double>(cs.size())));
    }
    if (cs.size() < shapes) s += fmt::format(" on {}/{}", cs.size(), shapes);
    fragments.push_back(std::move(s));
  }
  return name + " " + fmt::format("{}", fmt::join(fragments, " and "));
}

PathSummary summarize(const std::vector<const PathChoice*>& group) {
  const size_t shapes = group.size();
  std::vector<std::string> names;  // the own paths, best first
  std::string twin;
  for (const PathChoice* c : group) {
    for (const auto& p : c->own) {
      if (std::ranges::find(names, p.name) == names.end()) names.push_back(p.name);
    }
    if (twin.empty() && c->twin) twin = c->twin->name;
  }

  std::vector<std::string> chosen;
  for (const auto& name : names) {
    std::set<std::string> labels;
    size_t n = 0;
    for (const PathChoice* c : group) {
      if (const PathCandidate* p = c->chosen_path(); p != nullptr && p->name == name) {
        ++n;
        labels.insert(p->label);
      }
    }
    if (n == 0) continue;
    const bool one_label = labels.size() == 1 && !labels.begin()->empty();
    chosen.push_back(fmt::format("{}{} on {}/{} shapes", name, one_label ? " (" + *labels.begin() + ")" : "", n, shapes));
  }
  const auto none = static_cast<size_t>(std::ranges::count_if(group, [](const PathChoice* c) { return !c->chosen; }));
  if (none > 0) chosen.push_back(fmt::format("nothing runs on {}/{} shapes", none, shapes));

  std::vector<std::string> others;
  for (const auto& name : names) {
    std::vector<const PathCandidate*> not_chosen;
    for (const PathChoice* c : group) {
      const PathCandidate* p = find_path(*c, name);
      if (p == nullptr || p != c->chosen_path()) not_chosen.push_back(p);
    }
    if (!not_chosen.empty()) others.push_back(path_text(name, not_chosen, shapes));
  }
  if (!twin.empty()) {
    std::vector<const PathCandidate*> twins;
    for (const PathChoice* c : group) twins.push_back(c->twin && c->twin->name == twin ? &*c->twin : nullptr);
    others.push_back(path_text(twin, twins, shapes));
  }
  return {group.front()->family, group.front()->dtype, fmt::format("{}", fmt::join(chosen, ", ")), others};
}

}  // namespace

std::string PathSummary::text() const {
  return others.empty() ? chosen : fmt::format("{}; {}", chosen, fmt::join(others, ", "));
}

std::vector<PathSummary> summarize_paths(const std::vector<PathChoice>& choices) {
  std::vector<std::vector<const PathChoice*>> groups;  // by family and dtype, in order of appearance
  for (const auto& c : choices) {
    auto it = std::ranges::find_if(groups, [&](const auto& g) { return g.front()->family == c.family && g.front()->dtype == c.dtype; });
    if (it == groups.end()) it = groups.insert(groups.end(), std::vector<const PathChoice*>{});
    it->push_back(&c);
  }
  std::vector<PathSummary> lines;
  for (const auto& g : groups) lines.push_back(summarize(g));
  return lines;
}

}  // namespace archbench
