#include "harness/vendor/cudnn_frontend_loading.hpp"

#include <mutex>

#include "harness/vendor/cuda_libraries.hpp"

// Declared by cudnn-frontend under NV_CUDNN_FRONTEND_USE_DYNAMIC_LOADING; the program defines it once.
namespace cudnn_frontend {
void* cudnn_dlhandle = nullptr;
}  // namespace cudnn_frontend

namespace archbench {

void use_loaded_cudnn_for_frontend() {
  static std::once_flag once;
  std::call_once(once, [] { cudnn_frontend::cudnn_dlhandle = cudnn_library_handle(); });
}

}  // namespace archbench
