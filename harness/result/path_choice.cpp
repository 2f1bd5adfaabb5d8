#include "harness/result/path_choice.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "harness/result/result.hpp"
#include "harness/util/operator_id.hpp"

namespace archbench {
namespace {

using Key = std::tuple<std::string, std::string, DType, std::string>;  // family, name, dtype, shape

// What a dispatcher must know before it routes work to a path: its image runs on this device and
// its result is right, with no error or worker fault on the way.
bool usable(const OperatorResult& r) {
  return r.image.runs() && r.correctness && r.correctness->correct() && r.error.empty() && r.fault == WorkerFault::None;
}

PathCandidate candidate(const Key& key, const OperatorResult* r) {
  const auto& [family, name, dtype, shape] = key;
  PathCandidate c;
  c.id = join_operator_id(family, name, dtype_name(dtype), shape);
  c.name = name;
  if (r == nullptr) {
    c.verdict.outcome = OperatorVerdict::Outcome::Absent;
    return c;
  }
  c.verdict = operator_verdict(*r);
  c.label = r->image.label;
  c.usable = usable(*r);
  return c;
}

std::optional<double> median_ms(const OperatorResult* r) {
  if (r == nullptr || !r->timing || r->timing->median_ms <= 0) return std::nullopt;
  return r->timing->median_ms;
}

}  // namespace

std::vector<PathChoice> choose_paths(const std::vector<OperatorResult>& results,
                                     const std::vector<PathPreference>& preferences) {
  std::map<Key, const OperatorResult*> by_key;
  for (const auto& r : results) by_key[{r.family, r.name, r.dtype, r.shape}] = &r;
  auto find = [&](const Key& key) -> const OperatorResult* {
    const auto it = by_key.find(key);
    return it == by_key.end() ? nullptr : it->second;
  };

  std::vector<PathChoice> choices;
  std::set<std::tuple<std::string, DType, std::string>> opened;  // family, dtype, shape
  for (const auto& r : results) {
    const auto pref = std::ranges::find_if(preferences, [&](const PathPreference& p) {
      return p.family == r.family && std::ranges::find(p.dtypes, r.dtype) != p.dtypes.end();
    });
    if (pref == preferences.end()) continue;
    // A path in the problem's own dtype opens a problem; the f32 SIMT fallback only joins one.
    const bool own_dtype = std::ranges::any_of(pref->paths, [&](const auto& p) { return p.name == r.name && !p.dtype; });
    if (!own_dtype || !opened.insert({r.family, r.dtype, r.shape}).second) continue;

    PathChoice choice{r.family, r.dtype, r.shape, {}, std::nullopt, std::nullopt};
    std::vector<const OperatorResult*> ran;  // per path, its result; null when absent
    for (const auto& path : pref->paths) {
      const Key key{r.family, path.name, path.dtype.value_or(r.dtype), r.shape};
      ran.push_back(find(key));
      choice.own.push_back(candidate(key, ran.back()));
      if (!choice.chosen && choice.own.back().usable) choice.chosen = choice.own.size() - 1;
    }
    const Key twin_key{r.family, pref->twin, r.dtype, r.shape};
    const OperatorResult* twin = pref->twin.empty() ? nullptr : find(twin_key);
    if (twin != nullptr) choice.twin = candidate(twin_key, twin);

    // Medians as ratios to the chosen path's, where both were timed (never under --quick or
    // --no-timing; a path that failed its check is not timed either).
    // (A plain double, 0 for none: GCC 12 at -O1 warns maybe-uninitialized on an optional here.)
    const double base = choice.chosen ? median_ms(ran[*choice.chosen]).value_or(0.0) : 0.0;
    auto ratio = [&](const OperatorResult* other) -> std::optional<double> {
      const auto m = median_ms(other);
      if (base <= 0 || !m) return std::nullopt;
      return *m / base;
    };
    for (size_t i = 0; i < choice.own.size(); ++i) choice.own[i].time_ratio = ratio(ran[i]);
    if (choice.twin) choice.twin->time_ratio = ratio(twin);
    choices.push_back(std::move(choice));
  }
  return choices;
}

}  // namespace archbench
