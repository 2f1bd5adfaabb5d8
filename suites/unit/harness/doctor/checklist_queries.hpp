// What the doctor's layer tests ask of a checklist: the checklist one check function writes for
// some facts, and the one finding a check made in it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "harness/doctor/check_table.hpp"
#include "harness/doctor/checklist.hpp"

namespace archbench::doctor {

// The checklist check(facts, out) writes, e.g. checked(check_runtime, facts).
template <typename Facts>
[[nodiscard]] Checklist checked(void (*check)(const Facts&, Checklist&), const Facts& facts) {
  Checklist c;
  check(facts, c);
  return c;
}

// What the check `id` of a layer's table alone finds in `facts` (check_table.hpp).
template <typename Facts>
[[nodiscard]] Checklist judged(std::span<const Check<Facts>> table, Layer layer, std::string_view id, const Facts& facts) {
  Checklist c;
  run_check(table, layer, id, facts, c);
  return c;
}

// The one finding of `check` in c; a test failure when there is none or more than one (nullptr
// when there is none).
[[nodiscard]] inline const Finding* only(const Checklist& c, const std::string& check) {
  const auto all = c.all_of(check);
  EXPECT_EQ(all.size(), 1u) << check;
  return all.empty() ? nullptr : all.front();
}

}  // namespace archbench::doctor
