// The toolkit that compiled a cubin, from its `.note.nv.tkinfo` section: ptxas writes its version
// there ("Cuda compilation tools, release 13.0, V13.0.88"). A binary that links no CUDA runtime
// dynamically (the runtime linked statically, as in cuDNN 9's engine libraries, or none at all)
// still says through these notes which CUDA major its device code needs a driver for.
#pragma once

#include <optional>

#include "harness/arch/cuda_versions.hpp"
#include "harness/binary/byte_view.hpp"

namespace archbench::binary::detail {

// The release named in a cubin's toolkit note; nullopt when it has none (older toolkits) or the
// note holds no "release X.Y". Fails through `site` only for a cubin whose headers are malformed.
[[nodiscard]] std::optional<arch::CudaVersion> cubin_toolkit_release(Bytes cubin, const ErrorSite& site);

}  // namespace archbench::binary::detail
