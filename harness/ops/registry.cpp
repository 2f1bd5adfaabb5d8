#include "harness/ops/registry.hpp"

#include "harness/ops/id_filter.hpp"

#include <algorithm>
#include <stdexcept>

namespace archbench {

void Registry::add(std::unique_ptr<Operator> op) {
  const std::string id = op->id();
  if (std::ranges::any_of(ops_, [&](const auto& o) { return o->id() == id; })) {
    throw std::logic_error("operator registered twice: " + id);
  }
  ops_.push_back(std::move(op));
}

std::vector<const Operator*> Registry::select(const std::string& glob, const std::vector<DType>& dtypes) const {
  std::vector<const Operator*> out;
  for (const auto& op : ops_) {
    if (!id_matches(glob, op->id())) continue;
    if (!dtypes.empty() && std::ranges::find(dtypes, op->spec().dtype) == dtypes.end()) continue;
    out.push_back(op.get());
  }
  return out;
}

TestOperators::TestOperators(AddFn add) { all().push_back(add); }

std::vector<TestOperators::AddFn>& TestOperators::all() {
  static std::vector<AddFn> fns;
  return fns;
}

}  // namespace archbench
