#include "harness/ops/tensor.hpp"

#include <algorithm>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "harness/ops/device_tensor_kernels.hpp"
#include "harness/util/parallel_for.hpp"

namespace archbench {
namespace {

constexpr size_t kChunk = size_t{1} << 20;  // elements per host work item

template <typename T, typename Convert>
std::vector<T> convert_all(const std::vector<double>& v, Convert c) {
  std::vector<T> out(v.size());
  parallel_chunks(v.size(), kChunk, [&](size_t, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = c(v[i]);
  });
  return out;
}

}  // namespace

double round_to_storage(DType d, double v) {
  switch (d) {
    case DType::F16: return static_cast<double>(__half2float(__double2half(v)));
    case DType::BF16: return static_cast<double>(__bfloat162float(__double2bfloat16(v)));
    case DType::E4M3: return static_cast<double>(static_cast<float>(__nv_fp8_e4m3(v)));  // saturates at +-448
    case DType::E5M2: return static_cast<double>(static_cast<float>(__nv_fp8_e5m2(v)));  // saturates at +-57344
    default: return static_cast<double>(static_cast<float>(v));
  }
}

HostTensor random_tensor(DType dtype, size_t numel, std::mt19937_64& rng, double lo, double hi) {
  // One generator per chunk, seeded in order from `rng`: the values depend on the seed alone.
  std::vector<uint64_t> seeds((numel + kChunk - 1) / kChunk);
  for (auto& s : seeds) s = rng();
  HostTensor t{dtype, std::vector<double>(numel)};
  parallel_chunks(numel, kChunk, [&](size_t c, size_t begin, size_t end) {
    std::mt19937_64 chunk_rng(seeds[c]);
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t i = begin; i < end; ++i) t.values[i] = round_to_storage(dtype, dist(chunk_rng));
  });
  return t;
}

DeviceTensor allocate(DType dtype, size_t numel) { return DeviceTensor{dtype, numel, DeviceBuffer(numel * storage_bytes(dtype))}; }

DeviceTensor upload(const HostTensor& t) {
  DeviceTensor d = allocate(t.dtype, t.values.size());
  auto copy = [&](const auto& host) {
    ARCHBENCH_CUDA_CHECK(cudaMemcpy(d.buffer.get(), host.data(), d.buffer.bytes(), cudaMemcpyHostToDevice));
    finish_legacy_stream();
  };
  switch (t.dtype) {
    case DType::F16: copy(convert_all<__half>(t.values, [](double v) { return __double2half(v); })); break;
    case DType::BF16: copy(convert_all<__nv_bfloat16>(t.values, [](double v) { return __double2bfloat16(v); })); break;
    case DType::E4M3: copy(convert_all<__nv_fp8_e4m3>(t.values, [](double v) { return __nv_fp8_e4m3(v); })); break;
    case DType::E5M2: copy(convert_all<__nv_fp8_e5m2>(t.values, [](double v) { return __nv_fp8_e5m2(v); })); break;
    default: copy(convert_all<float>(t.values, [](double v) { return static_cast<float>(v); })); break;
  }
  return d;
}

DeviceTensor random_device_tensor(DType dtype, size_t numel, uint64_t seed, double lo, double hi) {
  if (!device_kernels::available()) {
    std::mt19937_64 rng(seed);
    return upload(random_tensor(dtype, numel, rng, lo, hi));
  }
  DeviceTensor d = allocate(dtype, numel);
  device_kernels::fill_uniform(d.buffer.get(), dtype, numel, seed, lo, hi);
  return d;
}

DeviceTensor random_input(DType dtype, size_t numel, std::mt19937_64& rng, HostTensor* keep, double lo, double hi) {
  if (keep == nullptr) return random_device_tensor(dtype, numel, rng(), lo, hi);
  *keep = random_tensor(dtype, numel, rng, lo, hi);
  return upload(*keep);
}

void poison(DeviceTensor& t) {
  ARCHBENCH_CUDA_CHECK(cudaMemset(t.buffer.get(), 0xFF, t.buffer.bytes()));
  finish_legacy_stream();
}

void finish_legacy_stream() { ARCHBENCH_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy)); }

std::vector<double> download(const DeviceTensor& t) {
  std::vector<double> out(t.numel);
  auto fetch = [&](auto tag, auto to_double) {
    std::vector<decltype(tag)> host(t.numel);
    ARCHBENCH_CUDA_CHECK(cudaMemcpy(host.data(), t.buffer.get(), t.buffer.bytes(), cudaMemcpyDeviceToHost));
    parallel_chunks(t.numel, kChunk, [&](size_t, size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) out[i] = to_double(host[i]);
    });
  };
  switch (t.dtype) {
    case DType::F16: fetch(__half{}, [](__half h) { return static_cast<double>(__half2float(h)); }); break;
    case DType::BF16: fetch(__nv_bfloat16{}, [](__nv_bfloat16 h) { return static_cast<double>(__bfloat162float(h)); }); break;
    case DType::E4M3: fetch(__nv_fp8_e4m3{}, [](__nv_fp8_e4m3 h) { return static_cast<double>(static_cast<float>(h)); }); break;
    case DType::E5M2: fetch(__nv_fp8_e5m2{}, [](__nv_fp8_e5m2 h) { return static_cast<double>(static_cast<float>(h)); }); break;
    default: fetch(float{}, [](float f) { return static_cast<double>(f); }); break;
  }
  return out;
}

CheckResult check_all_finite(const DeviceTensor& t) {
  CheckResult r;
  r.elements = t.numel;
  if (device_kernels::available()) {
    r.non_finite = device_kernels::count_non_finite(t.buffer.get(), t.dtype, t.numel);
  } else {
    const auto got = download(t);
    r.non_finite = static_cast<size_t>(std::ranges::count_if(got, [](double v) { return !std::isfinite(v); }));
  }
  r.passed = r.non_finite == 0;
  return r;
}

CheckResult compare_to_reference(const std::vector<double>& got, const std::vector<double>& ref, double tol) {
  if (got.size() != ref.size()) throw std::logic_error("compare_to_reference: size mismatch");
  CheckResult r;
  r.tolerance = tol;
  r.elements = got.size();
  double diff2 = 0, ref2 = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) {
      ++r.non_finite;
      continue;
    }
    const double d = got[i] - ref[i];
    diff2 += d * d;
    ref2 += ref[i] * ref[i];
    r.max_abs_error = std::max(r.max_abs_error, std::abs(d));
  }
  r.rel_error = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  r.passed = r.non_finite == 0 && r.rel_error <= tol;
  return r;
}

}  // namespace archbench
