// Host data preparation on all cores: every index once, errors carried to the caller, and random
// inputs that depend on the seed alone.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <vector>

#include "harness/ops/tensor.hpp"
#include "harness/util/parallel_for.hpp"

namespace archbench {
namespace {

TEST(ParallelChunks, VisitsEveryIndexOnceInFixedChunks) {
  const size_t n = 10'007;
  std::vector<std::atomic<int>> seen(n);
  std::atomic<size_t> calls{0};
  parallel_chunks(n, 1000, [&](size_t c, size_t begin, size_t end) {
    EXPECT_EQ(begin, c * 1000);
    EXPECT_EQ(end, std::min(n, (c + 1) * 1000));
    for (size_t i = begin; i < end; ++i) seen[i]++;
    calls++;
  });
  EXPECT_EQ(calls.load(), 11u);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << i;
}

TEST(ParallelChunks, NothingToDoAndErrorsReachTheCaller) {
  parallel_chunks(0, 16, [](size_t, size_t, size_t) { FAIL() << "no chunk expected"; });
  EXPECT_THROW(parallel_chunks(100, 10,
                               [](size_t c, size_t, size_t) {
                                 if (c == 7) throw std::runtime_error("chunk 7");
                               }),
               std::runtime_error);
}

TEST(RandomTensor, SameSeedSameValuesAcrossChunks) {
  const size_t n = (size_t{1} << 21) + 123;  // three chunks
  std::mt19937_64 a(42), b(42), c(43);
  const HostTensor x = random_tensor(DType::BF16, n, a, -2.0, 2.0);
  const HostTensor y = random_tensor(DType::BF16, n, b, -2.0, 2.0);
  const HostTensor z = random_tensor(DType::BF16, n, c, -2.0, 2.0);
  ASSERT_EQ(x.values.size(), n);
  EXPECT_EQ(x.values, y.values);
  EXPECT_NE(x.values, z.values);
  size_t zeros = 0;
  for (double v : x.values) {
    ASSERT_GE(v, -2.0);
    ASSERT_LE(v, 2.0);
    ASSERT_EQ(v, round_to_storage(DType::BF16, v)) << "not representable in bf16";
    zeros += v == 0.0;
  }
  EXPECT_LT(zeros, n / 100);
  // The chunks are independent streams, not copies of one another.
  EXPECT_NE(std::vector<double>(x.values.begin(), x.values.begin() + 64),
            std::vector<double>(x.values.begin() + (1 << 20), x.values.begin() + (1 << 20) + 64));
}

TEST(ParallelRows, EveryRowOnceAndTheSameResultAsOneCore) {
  const size_t rows = 1'001, cols = 37;
  std::vector<double> x(rows * cols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i % 97) * 0.25 - 3.0;
  std::vector<double> serial(rows), parallel(rows);
  std::vector<std::atomic<int>> seen(rows);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) serial[r] += x[r * cols + c] * x[r * cols + c];
  }
  parallel_rows(rows, [&](size_t r) {
    seen[r]++;
    for (size_t c = 0; c < cols; ++c) parallel[r] += x[r * cols + c] * x[r * cols + c];
  });
  for (size_t r = 0; r < rows; ++r) ASSERT_EQ(seen[r].load(), 1) << r;
  EXPECT_EQ(parallel, serial);  // bit for bit: each row summed in the same order
}

TEST(ParallelMap, ElementByElementInOrder) {
  std::vector<double> x(200'003);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  const std::vector<double> y = parallel_map(x, [](double v) { return 2 * v + 1; });
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], 2 * x[i] + 1) << i;
  EXPECT_TRUE(parallel_map({}, [](double v) { return v; }).empty());
}

}  // namespace
}  // namespace archbench
