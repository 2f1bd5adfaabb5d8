// The harness's device-side tensor helpers on a GPU (skipped without one, saying why): random
// benchmark-scale inputs (range, rounding to the storage type, the seed alone deciding the values,
// grid-stride coverage past one grid) and the non-finite count that replaced the host scan.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/ops/device_tensor_kernels.hpp"
#include "harness/ops/tensor.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench {
namespace {

class DeviceTensorKernels : public testing::TestWithParam<DType> {
 protected:
  void SetUp() override {
    static const Environment env = probe_environment();
    if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
    if (!device_kernels::available()) GTEST_SKIP() << "this build has no image of the helpers for this device";
  }
};

// More elements than one grid covers (2^16 blocks x 256 threads), and not a round number.
constexpr size_t kNumel = (size_t{1} << 24) + 4'099;

TEST_P(DeviceTensorKernels, FillIsInRangeRoundedAndDecidedByTheSeed) {
  const DType d = GetParam();
  const DeviceTensor a = random_device_tensor(d, kNumel, 7, -2.0, 3.0);
  const DeviceTensor b = random_device_tensor(d, kNumel, 7, -2.0, 3.0);
  const DeviceTensor c = random_device_tensor(d, kNumel, 8, -2.0, 3.0);
  const std::vector<double> x = download(a), y = download(b), z = download(c);
  EXPECT_EQ(x, y);
  EXPECT_NE(x, z);
  double sum = 0;
  size_t zeros = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_GE(x[i], -2.0) << i;
    ASSERT_LE(x[i], 3.0) << i;
    ASSERT_EQ(x[i], round_to_storage(d, x[i])) << i;
    sum += x[i];
    zeros += x[i] == 0.0;
  }
  EXPECT_NEAR(sum / static_cast<double>(x.size()), 0.5, 0.01);  // uniform's mean
  EXPECT_LT(zeros, x.size() / 100);
  // The tail past the first grid's reach is filled like the rest, not left at zero.
  size_t tail_zeros = 0;
  for (size_t i = (size_t{1} << 24); i < x.size(); ++i) tail_zeros += x[i] == 0.0;
  EXPECT_LT(tail_zeros, 100u);
}

TEST_P(DeviceTensorKernels, NonFiniteCountIsExact) {
  const DType d = GetParam();
  DeviceTensor t = random_device_tensor(d, kNumel, 1);
  EXPECT_EQ(check_all_finite(t).non_finite, 0u);
  EXPECT_TRUE(check_all_finite(t).passed);
  poison(t);
  const CheckResult poisoned = check_all_finite(t);
  EXPECT_EQ(poisoned.non_finite, kNumel);
  EXPECT_EQ(poisoned.elements, kNumel);
  EXPECT_FALSE(poisoned.passed);

  // Three bad elements among finite ones: +inf, -inf and a NaN, one of them in the tail.
  t = random_device_tensor(d, kNumel, 2);
  const size_t bytes = storage_bytes(d);
  const std::vector<size_t> where{0, 12'345, kNumel - 1};
  const std::vector<float> bad{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN()};
  for (size_t k = 0; k < where.size(); ++k) {
    unsigned char raw[4];
    if (d == DType::F16) {
      const __half h = __float2half(bad[k]);
      std::memcpy(raw, &h, 2);
    } else if (d == DType::BF16) {
      const __nv_bfloat16 h = __float2bfloat16(bad[k]);
      std::memcpy(raw, &h, 2);
    } else {
      std::memcpy(raw, &bad[k], 4);
    }
    ARCHBENCH_CUDA_CHECK(
        cudaMemcpy(static_cast<char*>(t.buffer.get()) + where[k] * bytes, raw, bytes, cudaMemcpyHostToDevice));
  }
  EXPECT_EQ(device_kernels::count_non_finite(t.buffer.get(), d, t.numel), 3u);
  size_t host_count = 0;
  for (double v : download(t)) host_count += std::isfinite(v) ? 0 : 1;
  EXPECT_EQ(host_count, 3u);
}

INSTANTIATE_TEST_SUITE_P(Storage, DeviceTensorKernels, testing::Values(DType::F32, DType::F16, DType::BF16),
                         [](const testing::TestParamInfo<DType>& i) { return std::string(dtype_name(i.param)); });

}  // namespace
}  // namespace archbench
