// cuBLAS, cuBLASLt and cuDNN are opened on first use (cuda_libraries.cpp says why).
#pragma once

#include <string>

namespace archbench {

// Opens all three now (the doctor lists the libraries mapped into the process, so it loads them
// first); returns what could not be loaded, empty when all were.
std::string load_cuda_libraries();

}  // namespace archbench
