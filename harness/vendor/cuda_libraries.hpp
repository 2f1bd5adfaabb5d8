// cuBLAS, cuBLASLt and cuDNN are opened on first use (cuda_libraries.cpp says why).
#pragma once

#include <string>

namespace archbench {

// Opens all three now (the doctor lists the libraries mapped into the process, so it loads them
// first); returns what could not be loaded, empty when all were.
std::string load_cuda_libraries();

// cuDNN's dlopen handle (opening it if need be), for cudnn-frontend, which calls cuDNN through a
// handle it is given (its dynamic loading) rather than through these forwarders; nullptr when
// cuDNN cannot be loaded.
[[nodiscard]] void* cudnn_library_handle();

}  // namespace archbench
