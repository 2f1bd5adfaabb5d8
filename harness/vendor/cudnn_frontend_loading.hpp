// cudnn-frontend (NVIDIA's header-only C++ API over cuDNN's backend) is compiled with its dynamic
// loading: it calls cuDNN through a dlopen handle it is given. This hands it the cuDNN archbench
// opened (cuda_libraries.hpp), so that one library instance serves archbench and the frontend.
// The translation units that include <cudnn_frontend.h> call it before their first frontend call.
#pragma once

namespace archbench {

// Idempotent and thread-safe; a cuDNN that cannot be loaded leaves the handle null, and the
// frontend's first call then fails with its own error.
void use_loaded_cudnn_for_frontend();

}  // namespace archbench
