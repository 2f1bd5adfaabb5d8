#include "harness/run/error_oracle.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace archbench {

void apply_error_oracle(std::vector<OperatorResult>& results, const Registry& registry) {
  std::map<std::string, const Operator*> ops;
  for (const auto& op : registry.all()) ops[op->id()] = op.get();
  std::map<std::string, const OperatorResult*> by_id;
  for (const auto& r : results) by_id[r.id] = &r;

  for (auto& r : results) {
    auto op = ops.find(r.id);
    if (op == ops.end() || !r.correctness) continue;
    const OperatorSpec& s = op->second->spec();
    if (s.oracle_twin.empty() || !low_precision(s.dtype)) continue;
    const std::string twin_id = operator_id(s.family, s.oracle_twin, s.dtype, s.shape);
    auto twin = by_id.find(twin_id);
    if (twin == by_id.end() || !twin->second->correctness) continue;
    const CorrectnessResult& t = *twin->second->correctness;
    // Only comparable on identical inputs; a twin that itself failed is no yardstick.
    if (t.seed != r.correctness->seed || t.check_shape != r.correctness->check_shape || !t.passed) continue;
    r.correctness->twin_id = twin_id;
    r.correctness->twin_rel_error = t.rel_error;
    // The floor keeps an exact twin (error 0) from demanding exactness.
    if (r.correctness->rel_error > kOracleFactor * std::max(t.rel_error, 1e-7)) r.correctness->passed = false;
  }
}

}  // namespace archbench
