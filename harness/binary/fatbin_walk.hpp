// Fatbin containers and entry headers (docs/reference/compat.md, "Fatbin and cubin layout"), read without
// touching payloads (private to harness/binary).
#pragma once

#include <vector>

#include "harness/binary/byte_view.hpp"

namespace archbench::binary::detail {

inline constexpr uint32_t kFatbinMagic = 0xBA55ED50;

// Entry header flags (docs/reference/compat.md, "Fatbin and cubin layout").
inline constexpr uint64_t kFlagZlib = 0x1000;  // old compression, not supported
inline constexpr uint64_t kFlagLz4 = 0x2000;
inline constexpr uint64_t kFlagZstd = 0x8000;
inline constexpr uint64_t kFlagArchSpecific = 0x100000;
inline constexpr uint64_t kFlagFamilySpecific = 0x200000;

[[nodiscard]] bool has_fatbin_magic(Bytes data);

// Appends the entries of every container in file[offset, offset + size) to `out`; `containers`
// counts containers across calls so that indices follow file order.
void walk_fatbin_section(Bytes file, uint64_t offset, uint64_t size, bool relocatable, const std::string& path,
                         int& containers, std::vector<FatbinEntry>& out);

}  // namespace archbench::binary::detail
