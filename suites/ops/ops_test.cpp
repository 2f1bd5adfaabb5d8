// Image + correctness of every registered operator × dtype, as one test each. Without a GPU
// (or for a device below an operator's minimum compute capability) the test is skipped with
// the reason; a missing image, a wrong result or a probe disagreement fails it.
#include <cstddef>
#include <cstdint>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "harness/device/environment.hpp"
#include "harness/ops/registry.hpp"
#include "harness/run/phases.hpp"

namespace archbench {
namespace {

const Environment& environment() {
  static const Environment env = probe_environment();
  return env;
}

class OperatorTest : public testing::TestWithParam<const Operator*> {};

TEST_P(OperatorTest, ImageAndCorrectness) {
  const Environment& env = environment();
  if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
  ASSERT_TRUE(launch_blocking_in_effect()) << "the suite's main sets CUDA_LAUNCH_BLOCKING=1";

  const Operator& op = *GetParam();
  const DeviceInfo& dev = env.devices.front();
  const uint64_t seed = std::random_device{}();
  RecordProperty("seed", std::to_string(seed));
  OperatorResult r = describe(op);
  check_operator(op, build_manifest(), env.facts(dev), seed, r);

  if (r.image.status == "unsupported") GTEST_SKIP() << r.image.cause;
  EXPECT_TRUE(r.image.agrees) << r.image.disagreement;
  ASSERT_TRUE(r.image.status == "sass" || r.image.status == "ptx-jit" || r.image.status == "library")
      << op.id() << ": " << r.image.label << ": " << r.image.cause << "\n  fix: " << r.image.fix;
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.correctness.has_value());
  const auto& c = *r.correctness;
  EXPECT_EQ(c.non_finite, 0u) << "unwritten or non-finite outputs at " << c.check_shape;
  EXPECT_LE(c.rel_error, c.tolerance) << "seed " << seed << ", check shape " << c.check_shape;
  EXPECT_TRUE(c.bench_shape_finite) << "unwritten or non-finite outputs at the full shape " << r.shape;
}

std::vector<const Operator*> all_operators() {
  std::vector<const Operator*> ops;
  for (const auto& op : registry().all()) ops.push_back(op.get());
  return ops;
}

std::string test_name(const testing::TestParamInfo<const Operator*>& info) {
  std::string id = info.param->id();
  std::string out;
  for (size_t i = 0; i < id.size(); ++i) out += id[i] == '/' ? std::string("__") : std::string(1, id[i]);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Registry, OperatorTest, testing::ValuesIn(all_operators()), test_name);

}  // namespace
}  // namespace archbench
