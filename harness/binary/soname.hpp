// The DT_SONAME of a shared library ("libcudart.so.12"), read from its dynamic section without
// loading it: the doctor names the version of library copies that this process did not load.
#pragma once

#include <optional>
#include <string>

namespace archbench::binary {

// nullopt when the file cannot be read, is not a 64-bit little-endian ELF, or has no SONAME.
[[nodiscard]] std::optional<std::string> read_soname(const std::string& path);

}  // namespace archbench::binary
