// Bounds-checked little-endian reads over untrusted bytes, and the error site that turns a
// relative position into a BinaryError with the file offset (private to harness/binary).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>

#include "harness/binary/binary_file.hpp"

namespace archbench::binary::detail {

static_assert(std::endian::native == std::endian::little, "the readers memcpy little-endian fields");

using Bytes = std::span<const std::byte>;

// Offsets come from the file: every sum goes through here so that a huge value cannot wrap.
[[nodiscard]] inline std::optional<uint64_t> checked_add(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// [offset, offset + length) lies within [0, size).
[[nodiscard]] inline bool fits(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

// Trivially copyable structure (or integer) at `offset`; the caller has checked `fits`.
template <typename T>
[[nodiscard]] T load(Bytes data, uint64_t offset) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value;
  std::memcpy(&value, data.data() + offset, sizeof(T));
  return value;
}

[[nodiscard]] std::string hex(uint64_t v);

// Where a parse runs: `base` is the file offset of byte 0 of the parsed buffer. For a decompressed
// payload there is no file offset inside it, so `context` names the buffer and `base` is its entry.
class ErrorSite {
 public:
  ErrorSite(const std::string& path, uint64_t base, std::string context = {})
      : path_(&path), base_(base), context_(std::move(context)) {}
  [[noreturn]] void fail(uint64_t relative, const std::string& message) const;
  [[nodiscard]] const std::string& path() const { return *path_; }
  [[nodiscard]] uint64_t base() const { return base_; }

 private:
  const std::string* path_;
  uint64_t base_;
  std::string context_;
};

}  // namespace archbench::binary::detail
