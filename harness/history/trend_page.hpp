// The trend page of `archbench history check --html`: per runner and operator with a step, the
// series of its per-run medians, the change points found (their segment medians) and the runs where
// the recorded environment changed, with the step's words. Self-contained, as every archbench page.
#pragma once

#include <string>
#include <vector>

#include "harness/history/history_check.hpp"
#include "harness/history/history_store.hpp"

namespace archbench::history {

// `steps` as check_history gave them; `title` names the store. At most `max_series` charts (the
// regressions first); the page says how many it left out.
[[nodiscard]] std::string trend_page(const HistoryStore& store, const std::vector<Step>& steps, const std::string& title,
                                     size_t max_series = 200);

}  // namespace archbench::history
