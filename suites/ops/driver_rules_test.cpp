// The compatibility rules checked against the real driver, for the cases no build of ours
// produces: a PTX image whose ISA is newer than the driver can JIT (222). The PTX is written at
// test time one ISA minor above this driver's, so the test provokes the error on any driver, and
// the prediction (harness/arch) must name the same error the driver returns.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

#include "harness/arch/compat.hpp"
#include "harness/arch/cuda_versions.hpp"
#include "harness/device/environment.hpp"

namespace archbench {
namespace {

// A trivial kernel for any device (CC 7.5 and newer: the oldest CUDA 13 targets) with the given `.version`.
std::string ptx_with_isa(const arch::PtxIsa& isa) {
  return ".version " + std::to_string(isa.major) + "." + std::to_string(isa.minor) +
         "\n.target sm_75\n.address_size 64\n"
         ".visible .entry add_one(.param .u64 p)\n{\n  .reg .b64 %rd<2>;\n  .reg .f32 %f<3>;\n"
         "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd1, %rd1;\n  ld.global.f32 %f1, [%rd1];\n"
         "  add.f32 %f2, %f1, 0f3F800000;\n  st.global.f32 [%rd1], %f2;\n  ret;\n}\n";
}

// Loads the PTX and asks for the kernel's attributes: with lazy loading (CUDA_MODULE_LOADING=LAZY,
// the default) the JIT, and so its error, comes only when the kernel is first needed.
cudaError_t load_and_query(const std::string& ptx) {
  cudaLibrary_t library = nullptr;
  cudaError_t e = cudaLibraryLoadData(&library, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (e != cudaSuccess) return e;
  cudaKernel_t kernel = nullptr;
  e = cudaLibraryGetKernel(&kernel, library, "add_one");
  if (e == cudaSuccess) {
    cudaFuncAttributes attr{};
    e = cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel));
  }
  const cudaError_t unload = cudaLibraryUnload(library);
  return e != cudaSuccess ? e : unload;
}

TEST(DriverRules, PtxIsaNewerThanTheDriverFailsWith222AsPredicted) {
  const Environment env = probe_environment();
  if (!env.usable()) GTEST_SKIP() << "no usable CUDA device: " << env.device_count_error_text;
  const auto driver_isa = arch::ptx_isa_of_cuda(env.driver);
  if (!driver_isa) GTEST_SKIP() << "this driver's PTX ISA is not in the table (CUDA " << env.driver.str() << ")";
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);

  // Control: the same PTX at the driver's own ISA loads, so a failure below is the ISA alone.
  const cudaError_t control = load_and_query(ptx_with_isa(*driver_isa));
  ASSERT_EQ(control, cudaSuccess) << cudaGetErrorName(control);

  const arch::PtxIsa newer{driver_isa->major, driver_isa->minor + 1};
  const cudaError_t e = load_and_query(ptx_with_isa(newer));
  cudaGetLastError();  // not sticky; clear it for the tests that follow
  EXPECT_EQ(static_cast<int>(e), 222) << cudaGetErrorName(e);

  arch::CodeTarget ptx;
  ptx.kind = arch::ImageKind::Ptx;
  ptx.arch = 75;
  ptx.virtual_arch = 75;
  ptx.ptx_isa = newer;
  const arch::Verdict v = arch::predict(arch::ImageSet{{ptx}, {0, 0}}, env.facts(env.devices.front()));
  EXPECT_EQ(v.status, ImageOutcome::NeedsNewerDriver) << v.cause;
  EXPECT_EQ(arch::expected_cuda_error(v.status), static_cast<int>(e));
}

}  // namespace
}  // namespace archbench
