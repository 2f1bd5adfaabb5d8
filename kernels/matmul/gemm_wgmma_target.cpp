#include "kernels/matmul/gemm_wgmma_target.hpp"

namespace archbench::kernels::matmul {

arch::SingleTarget gemm_wgmma_target() {
  return {arch::CodeTarget{arch::ImageKind::Sass, 90, arch::Suffix::ArchSpecific, 90, {}},
          "wgmma code is compiled only for sm_90a, when the arch list has 9.0 or 9.0a"};
}

}  // namespace archbench::kernels::matmul
