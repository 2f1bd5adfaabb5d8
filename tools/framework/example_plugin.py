"""An example plug-in for `archbench framework --ops FILE` (docs/framework.md, "Your own ops"): a tiny CUDA
extension built with torch.utils.cpp_extension for the targets in TORCH_CUDA_ARCH_LIST, tested like archbench's
own framework ops. With TORCH_CUDA_ARCH_LIST=8.0 on a 9.0 GPU it has SASS sm_80 only and no PTX: archbench
reports the missing image and names the extension's file."""

CUDA = r"""
#include <torch/extension.h>
#include <c10/cuda/CUDAException.h>
__global__ void scale2_kernel(const float* x, float* y, int64_t n) {
  const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
torch::Tensor scale2(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32, "scale2: a float32 CUDA tensor");
  auto y = torch::empty_like(x);
  const int64_t n = x.numel();
  scale2_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  C10_CUDA_CHECK(cudaGetLastError());
  return y;
}
"""


def archbench_ops(torch):
    """The ops: each a dict with name, dtype, build(torch, gen, dtype) -> (inputs, call), and optionally
    reference(inputs in float64) -> the expected output (default: call on the float64 inputs)."""
    import os
    from torch.utils.cpp_extension import load_inline
    ext = load_inline(name="archbench_example_scale2_" + os.environ.get("TORCH_CUDA_ARCH_LIST", "").replace(".", "")
                      .replace(";", "_").replace("+", "p").replace(" ", "_"),
                      cpp_sources="torch::Tensor scale2(torch::Tensor x);", cuda_sources=CUDA, functions=["scale2"])

    def build(torch, gen, dtype):
        x = torch.rand((1 << 22,), device="cuda", generator=gen, dtype=torch.float32)
        return [x], lambda t: ext.scale2(t[0])

    return [{"name": "scale2", "dtype": "f32", "build": build, "reference": lambda t: t[0] * 2}]
