// A framework run against an earlier one of the same stack (archbench framework --baseline): the CI
// gate for the user's framework. A regression is an op whose default dispatch now fails or is wrong,
// or is slower beyond the threshold; a changed backend (the kernel family that does the work) is one
// too, even when not slower: an upgrade that moves SDPA from cuDNN to FA2 is news before it is slow.
#pragma once

#include <string>
#include <vector>

#include "harness/framework/probe_answer.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench::framework {

enum class ChangeKind { NowFails, NowWrong, Slower, BackendChanged, Faster, Missing, New };
inline constexpr auto kChangeKinds = enum_names<ChangeKind>({
    {ChangeKind::NowFails, "now-fails"},
    {ChangeKind::NowWrong, "now-wrong"},
    {ChangeKind::Slower, "slower"},
    {ChangeKind::BackendChanged, "backend-changed"},
    {ChangeKind::Faster, "faster"},
    {ChangeKind::Missing, "missing"},
    {ChangeKind::New, "new"},
});

struct Change {
  ChangeKind kind;
  std::string id;
  std::string what;
  [[nodiscard]] bool regression() const;  // NowFails, NowWrong, Slower, BackendChanged
};

struct CompareRules {
  double slower = 0.10;     // the default dispatch's GPU time more than 10% over the baseline's, and
  double floor_us = 2.0;    // more than 2 us (launch-bound ops jitter by that much)
};

[[nodiscard]] std::vector<Change> compare_answers(const ProbeAnswer& baseline, const ProbeAnswer& now,
                                                  const CompareRules& rules = {});

}  // namespace archbench::framework
