#include "harness/framework/framework_compare.hpp"

#include <fmt/format.h>

#include <map>

namespace archbench::framework {

bool Change::regression() const {
  return kind == ChangeKind::NowFails || kind == ChangeKind::NowWrong || kind == ChangeKind::Slower ||
         kind == ChangeKind::BackendChanged;
}

std::vector<Change> compare_answers(const ProbeAnswer& baseline, const ProbeAnswer& now, const CompareRules& rules) {
  std::map<std::string, const ProbeOp*> before;
  for (const auto& op : baseline.ops) before[op.id] = &op;
  std::vector<Change> out;
  for (const auto& op : now.ops) {
    const auto it = before.find(op.id);
    if (it == before.end()) {
      out.push_back({ChangeKind::New, op.id, "not in the baseline"});
      continue;
    }
    const ProbeOp& old = *it->second;
    before.erase(it);
    const Variant& a = old.variants.front();
    const Variant& b = op.variants.front();
    const OpVerdict va = judge_op(old), vb = judge_op(op);
    if (a.status == VariantStatus::Ran && b.status != VariantStatus::Ran) {
      out.push_back({ChangeKind::NowFails, op.id, "ran in the baseline; now " + b.reason});
      continue;
    }
    if (va.check == Check::Pass && vb.check == Check::Wrong) {
      out.push_back({ChangeKind::NowWrong, op.id,
                     fmt::format("error {:.1e}, was {:.1e}", b.rel_error.value_or(NAN), a.rel_error.value_or(NAN))});
    }
    if (a.status == VariantStatus::Ran && b.status == VariantStatus::Ran && a.main_family() != b.main_family()) {
      out.push_back({ChangeKind::BackendChanged, op.id,
                     fmt::format("{} -> {}", family_name(a.main_family()), family_name(b.main_family()))});
    }
    if (a.gpu_us && b.gpu_us) {
      const double ratio = *b.gpu_us / *a.gpu_us;
      if (ratio > 1 + rules.slower && *b.gpu_us - *a.gpu_us > rules.floor_us) {
        out.push_back({ChangeKind::Slower, op.id, fmt::format("{:.1f} us, was {:.1f} (+{:.0f}%)", *b.gpu_us, *a.gpu_us,
                                                              100 * (ratio - 1))});
      } else if (ratio < 1 - rules.slower && *a.gpu_us - *b.gpu_us > rules.floor_us) {
        out.push_back({ChangeKind::Faster, op.id, fmt::format("{:.1f} us, was {:.1f}", *b.gpu_us, *a.gpu_us)});
      }
    }
  }
  for (const auto& [id, op] : before) out.push_back({ChangeKind::Missing, id, "in the baseline, not in this run"});
  return out;
}

}  // namespace archbench::framework
