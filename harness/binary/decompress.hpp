// Payload decompression with a declared output size (private to harness/binary).
#pragma once

#include <vector>

#include "harness/binary/byte_view.hpp"

namespace archbench::binary::detail {

// No real image comes near this; a larger declared size is a decompression bomb.
inline constexpr uint64_t kMaxUncompressedSize = uint64_t{1} << 30;

// Decodes `in` into exactly `declared` bytes or fails through `site` (offsets relative to the payload).
[[nodiscard]] std::vector<std::byte> decompress(Compression c, Bytes in, uint64_t declared, const ErrorSite& site);
// The same into `scratch`, which only grows and can be reused by the next call (a worker decoding
// thousands of entries then allocates and faults in its buffer once); returns the decoded bytes,
// a view into `scratch` (or `in` itself when not compressed).
[[nodiscard]] Bytes decompress_into(Compression c, Bytes in, uint64_t declared, const ErrorSite& site,
                                    std::vector<std::byte>& scratch);

}  // namespace archbench::binary::detail
