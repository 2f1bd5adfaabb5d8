#include "harness/framework/step_calls.hpp"

#include <functional>
#include <numeric>

namespace archbench::framework {
namespace {

int as_int(long long v) { return static_cast<int>(v); }

// Every dim but the last, multiplied: the rows a linear layer or a row norm sees.
int leading_rows(const std::vector<long long>& shape) {
  return as_int(std::accumulate(shape.begin(), shape.end() - 1, 1LL, std::multiplies<>{}));
}

}  // namespace

std::map<std::string, int> call_dims(const StepCall& c) {
  const auto& s = c.shapes;
  auto rank = [&](size_t i, size_t r) { return s.size() > i && s[i].size() == r; };
  if (c.op == "conv2d" && rank(0, 4) && rank(1, 4) && s[1][2] == s[1][3]) {
    return {{"B", as_int(s[0][0])}, {"C", as_int(s[0][1])}, {"H", as_int(s[0][2])}, {"W", as_int(s[0][3])},
            {"K", as_int(s[1][0])}, {"R", as_int(s[1][2])}, {"s", c.stride.value_or(1)}};
  }
  if (c.op == "linear" && s.size() >= 2 && s[0].size() >= 2 && rank(1, 2) && s[0].back() == s[1][1]) {
    return {{"M", leading_rows(s[0])}, {"N", as_int(s[1][0])}, {"K", as_int(s[1][1])}};
  }
  if (c.op == "sdpa" && rank(0, 4) && rank(1, 4)) {
    return {{"B", as_int(s[0][0])}, {"H", as_int(s[0][1])}, {"Nq", as_int(s[0][2])}, {"Nk", as_int(s[1][2])},
            {"D", as_int(s[0][3])}};
  }
  if ((c.op == "group_norm" || c.op == "silu") && rank(0, 4)) {
    return {{"B", as_int(s[0][0])}, {"C", as_int(s[0][1])}, {"H", as_int(s[0][2])}, {"W", as_int(s[0][3])}};
  }
  if (c.op == "rms_norm" && rank(0, 4)) {
    return {{"B", as_int(s[0][0])}, {"H", as_int(s[0][1])}, {"N", as_int(s[0][2])}, {"D", as_int(s[0][3])}};
  }
  if ((c.op == "layer_norm" || c.op == "gelu") && !s.empty() && s[0].size() >= 2) {
    return {{"M", leading_rows(s[0])}, {"N", as_int(s[0].back())}};
  }
  return {};
}

const FrameworkOp* framework_op_of(const StepCall& call, DType dtype, const std::vector<FrameworkOp>& ops) {
  const auto dims = call_dims(call);
  if (dims.empty()) return nullptr;
  const std::string op = call.op == "linear" ? "matmul" : call.op;
  const FrameworkOp* found = nullptr;
  for (const auto& f : ops) {
    if (f.op != op || f.dtype != dtype) continue;
    // Every dim the call has must be the op's (a norm's group count is the model's, not compared).
    bool same = true;
    for (const auto& [k, v] : dims) {
      const auto it = f.dims.find(k);
      same = same && it != f.dims.end() && it->second == v;
    }
    if (same && (found == nullptr || (found->layout == Layout::ChannelsLast && f.layout == Layout::Default))) found = &f;
  }
  return found;
}

}  // namespace archbench::framework
