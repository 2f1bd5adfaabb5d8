// Image + correctness of every registered operator × dtype, as one test each. Without a GPU
// (or for a device below an operator's minimum compute capability) the test is skipped with
// the reason; a missing image, a wrong result or a probe disagreement fails it.
// ARCHBENCH_TEST_SHAPES=check (suites/ops/test_shapes.hpp) leaves out the benchmark-shape pass
// and says so in the test's output and its "bench_shape" property.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/ops/registry.hpp"
#include "harness/run/error_oracle.hpp"
#include "harness/run/phases.hpp"
#include "suites/ops/test_shapes.hpp"

namespace archbench {
namespace {

const Environment& environment() {
  static const Environment env = probe_environment();
  return env;
}

// The check_operator options that ARCHBENCH_TEST_SHAPES asks for; nullopt, with a test failure,
// for a value it does not know.
std::optional<CheckOptions> suite_check_options() {
  const char* value = std::getenv(kTestShapesVariable);
  const std::optional<TestShapes> shapes = parse_test_shapes(value);
  if (!shapes) {
    ADD_FAILURE() << kTestShapesVariable << "=" << value << ": expected full (the default) or check";
    return std::nullopt;
  }
  CheckOptions options;
  options.bench_shape_pass = *shapes == TestShapes::Full;
  return options;
}

// A skipped benchmark-shape pass is reported, never counted as passed.
void note_bench_shape_skipped(const std::string& bench_shape) {
  testing::Test::RecordProperty("bench_shape", "skipped (" + std::string(kTestShapesVariable) + "=check)");
  std::cout << "note: full-shape pass skipped (" << kTestShapesVariable << "=check): " << bench_shape
            << " was not run, only the check scale was verified\n";
}

class OperatorTest : public testing::TestWithParam<const Operator*> {};

TEST_P(OperatorTest, ImageAndCorrectness) {
  const std::optional<CheckOptions> options = suite_check_options();  // a bad value fails even without a GPU
  ASSERT_TRUE(options.has_value());
  const Environment& env = environment();
  if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
  ASSERT_TRUE(launch_blocking_in_effect()) << "the suite's main sets CUDA_LAUNCH_BLOCKING=1";

  const Operator& op = *GetParam();
  const DeviceInfo& dev = env.devices.front();
  const uint64_t seed = std::random_device{}();
  RecordProperty("seed", std::to_string(seed));
  OperatorResult r = describe(op);
  check_operator(op, build_manifest(), env.facts(dev), seed, r, *options);

  if (r.image.status == ImageOutcome::Unsupported) GTEST_SKIP() << r.image.cause;
  // A single-target kernel (wgmma: sm_90a) has no image in a build without its target or on
  // another device: expected there, not a build fault.
  for (const auto& k : op.kernels()) {
    if (k.only && (k.host_stub == nullptr || dev.cc != k.only->target.cc())) {
      GTEST_SKIP() << op.id() << ": " << r.image.cause << "; " << r.image.fix;
    }
  }
  EXPECT_TRUE(r.image.agrees) << r.image.disagreement;
  ASSERT_TRUE(r.image.runs())
      << op.id() << ": " << r.image.label << ": " << r.image.cause << "\n  fix: " << r.image.fix;
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.correctness.has_value());
  const auto& c = *r.correctness;
  EXPECT_EQ(c.non_finite, 0u) << "unwritten or non-finite outputs at " << c.check_shape;
  EXPECT_LE(c.rel_error, c.tolerance) << "seed " << seed << ", check shape " << c.check_shape;
  if (options->bench_shape_pass) {
    EXPECT_TRUE(c.bench_shape_finite) << "unwritten or non-finite outputs at the full shape " << r.shape;
  } else {
    note_bench_shape_skipped(r.shape);
  }
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

// The error oracle: an own low-precision kernel against its library twin on the same inputs.
class OracleTest : public testing::TestWithParam<const Operator*> {};

TEST_P(OracleTest, NoWorseThanThreeTimesTheLibraryTwin) {
  const std::optional<CheckOptions> options = suite_check_options();
  ASSERT_TRUE(options.has_value());
  const Environment& env = environment();
  if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
  const Operator& op = *GetParam();
  const auto& s = op.spec();
  const std::string twin_id = operator_id(s.family, s.oracle_twin, s.dtype, s.shape);
  const Operator* twin = nullptr;
  for (const auto& candidate : registry().all()) if (candidate->id() == twin_id) twin = candidate.get();
  ASSERT_NE(twin, nullptr) << op.id() << " names a twin that is not registered: " << twin_id;

  const DeviceInfo& dev = env.devices.front();
  const uint64_t seed = std::random_device{}();
  RecordProperty("seed", std::to_string(seed));
  std::vector<OperatorResult> results{describe(op), describe(*twin)};
  check_operator(op, build_manifest(), env.facts(dev), seed, results[0], *options);
  check_operator(*twin, build_manifest(), env.facts(dev), seed, results[1], *options);
  if (results[0].image.status == ImageOutcome::Unsupported || results[1].image.status == ImageOutcome::Unsupported) {
    GTEST_SKIP() << "unsupported on this device";
  }
  if (!options->bench_shape_pass) note_bench_shape_skipped(op.spec().shape + " (both operators)");
  ASSERT_TRUE(results[0].correctness && results[1].correctness) << results[0].error << results[1].error;
  ASSERT_TRUE(results[1].correctness->passed) << "the twin itself is wrong: " << results[1].correctness->rel_error;
  ASSERT_EQ(results[0].correctness->check_shape, results[1].correctness->check_shape);
  apply_error_oracle(results, registry());
  ASSERT_TRUE(results[0].correctness->twin_rel_error.has_value()) << "the oracle did not pair " << op.id();
  EXPECT_TRUE(results[0].correctness->passed)
      << op.id() << ": rel. error " << results[0].correctness->rel_error << " vs twin " << twin_id << " "
      << *results[0].correctness->twin_rel_error << " (seed " << seed << ")";
}

std::vector<const Operator*> operators_with_twins() {
  std::vector<const Operator*> ops;
  for (const auto& op : registry().all()) {
    const DType d = op->spec().dtype;
    if (!op->spec().oracle_twin.empty() && low_precision(d)) ops.push_back(op.get());
  }
  return ops;
}

INSTANTIATE_TEST_SUITE_P(Twins, OracleTest, testing::ValuesIn(operators_with_twins()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OracleTest);

}  // namespace
}  // namespace archbench
