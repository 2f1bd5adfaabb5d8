// nvcc 13.0.88's own answers (docs/reference/compat.md, "Driver and runtime versions"), so grammar tests do
// not depend on the local nvcc.
#pragma once

#include "harness/arch/toolkit.hpp"

namespace archbench::test {

inline arch::Toolkit nvcc_13_0() {
  return arch::Toolkit::from_nvcc_output(
      "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\n",
      "sm_75\nsm_80\nsm_86\nsm_87\nsm_88\nsm_89\nsm_90\nsm_100\nsm_110\nsm_103\nsm_120\nsm_121\n");
}

inline arch::Toolkit nvcc_12_4() {
  return arch::Toolkit::from_nvcc_output("Cuda compilation tools, release 12.4, V12.4.131\n",
                                         "sm_50\nsm_52\nsm_53\nsm_60\nsm_61\nsm_62\nsm_70\nsm_72\nsm_75\nsm_80\nsm_86\nsm_87\nsm_89\nsm_90\n");
}

}  // namespace archbench::test
