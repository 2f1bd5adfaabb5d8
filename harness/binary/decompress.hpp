// Payload decompression with a declared output size (private to harness/binary).
#pragma once

#include <vector>

#include "harness/binary/byte_view.hpp"

namespace archbench::binary::detail {

// No real image comes near this; a larger declared size is a decompression bomb.
inline constexpr uint64_t kMaxUncompressedSize = uint64_t{1} << 30;

// Decodes `in` into exactly `declared` bytes or fails through `site` (offsets relative to the payload).
[[nodiscard]] std::vector<std::byte> decompress(Compression c, Bytes in, uint64_t declared, const ErrorSite& site);

}  // namespace archbench::binary::detail
