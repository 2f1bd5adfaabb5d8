// cuBLAS and cuDNN are opened on first use (cuda_libraries.cpp says why).
#pragma once

#include <string>

namespace archbench {

// Opens both now (the doctor lists the libraries mapped into the process, so it loads them
// first); returns what could not be loaded, empty when both were.
std::string load_cuda_libraries();

}  // namespace archbench
