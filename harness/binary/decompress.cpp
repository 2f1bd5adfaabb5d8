#include "harness/binary/decompress.hpp"

#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <new>

namespace archbench::binary::detail {

namespace {

// Streams into `out`, grown with the output actually produced, so that a frame which only claims
// a large size (a bomb, or a damaged header) costs no more memory than it really decodes. `out`
// is reused from call to call: no allocation, zero-fill or page fault once it is large enough.
Bytes zstd(Bytes in, uint64_t declared, const ErrorSite& site, std::vector<std::byte>& out) {
  // The frame may state its own size: a mismatch is caught before anything is decoded.
  const unsigned long long framed = ZSTD_getFrameContentSize(in.data(), in.size());
  if (framed == ZSTD_CONTENTSIZE_ERROR) site.fail(0, "not a zstd frame");
  if (framed != ZSTD_CONTENTSIZE_UNKNOWN && framed != declared) {
    site.fail(0, "zstd frame holds " + std::to_string(framed) + " bytes, the entry declares " + std::to_string(declared));
  }
  // One context per thread, reset per frame (creating one costs its workspace every time).
  thread_local const std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), &ZSTD_freeDCtx);
  if (!dctx) throw std::bad_alloc();
  ZSTD_DCtx_reset(dctx.get(), ZSTD_reset_session_only);
  uint64_t window = std::min<uint64_t>(declared, std::max<uint64_t>(out.size(), std::max<uint64_t>(in.size() * 8, 64 * 1024)));
  if (out.size() < window) out.resize(window);
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t produced = 0;
  for (;;) {
    ZSTD_outBuffer output{out.data(), window, produced};
    std::byte spare{};  // once the window is full: any further byte means the frame is larger than declared
    if (produced == window && window == declared) output = {&spare, 1, 0};
    const size_t consumed = input.pos;
    const size_t left = ZSTD_decompressStream(dctx.get(), &output, &input);
    if (ZSTD_isError(left) != 0) site.fail(input.pos, std::string("zstd: ") + ZSTD_getErrorName(left));
    if (output.dst == &spare) {
      if (output.pos != 0) site.fail(0, "zstd frame holds more than the " + std::to_string(declared) + " bytes the entry declares");
    } else {
      produced = output.pos;
    }
    if (left == 0) break;  // frame complete
    if (input.pos == input.size && output.pos < output.size) site.fail(input.pos, "truncated zstd frame");
    if (output.dst == &spare && input.pos == consumed) site.fail(input.pos, "zstd frame makes no progress");
    if (produced == window && window < declared) {
      window = std::min<uint64_t>(declared, window * 2);
      if (out.size() < window) out.resize(window);
    }
  }
  if (produced != declared) site.fail(0, "zstd produced " + std::to_string(produced) + " bytes, the entry declares " + std::to_string(declared));
  return Bytes(out.data(), produced);
}

Bytes lz4(Bytes in, uint64_t declared, const ErrorSite& site, std::vector<std::byte>& out) {
  constexpr uint64_t int_max = std::numeric_limits<int>::max();
  if (in.size() > int_max) site.fail(0, "LZ4 payload too large");
  // An LZ4 block expands at most ~255x: refuse larger claims before allocating.
  if (declared > in.size() * 255 + 64) site.fail(0, "declared size " + std::to_string(declared) + " is impossible for an LZ4 block of " + std::to_string(in.size()) + " bytes");
  if (out.size() < declared) out.resize(declared);
  const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out.data()),
                                    static_cast<int>(in.size()), static_cast<int>(declared));
  if (n < 0) site.fail(0, "corrupt LZ4 block");
  if (static_cast<uint64_t>(n) != declared) site.fail(0, "LZ4 produced " + std::to_string(n) + " bytes, the entry declares " + std::to_string(declared));
  return Bytes(out.data(), declared);
}

}  // namespace

Bytes decompress_into(Compression c, Bytes in, uint64_t declared, const ErrorSite& site, std::vector<std::byte>& scratch) {
  if (declared > kMaxUncompressedSize) {
    site.fail(0, "declared uncompressed size " + std::to_string(declared) + " exceeds the 1 GiB limit");
  }
  switch (c) {
    case Compression::Zstd: return zstd(in, declared, site, scratch);
    case Compression::Lz4: return lz4(in, declared, site, scratch);
    case Compression::None: break;
  }
  return in;
}

std::vector<std::byte> decompress(Compression c, Bytes in, uint64_t declared, const ErrorSite& site) {
  std::vector<std::byte> out;
  const Bytes decoded = decompress_into(c, in, declared, site, out);
  if (decoded.data() != out.data()) return {decoded.begin(), decoded.end()};
  out.resize(decoded.size());
  return out;
}

}  // namespace archbench::binary::detail
