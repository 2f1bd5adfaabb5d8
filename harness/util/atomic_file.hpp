// Writes a file so that readers see the old content or the new, never a torn one:
// temp file in the same directory, fsync, rename, fsync of the directory.
#pragma once

#include <string>

namespace archbench {

// Throws std::runtime_error naming the path and the failing step.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace archbench
