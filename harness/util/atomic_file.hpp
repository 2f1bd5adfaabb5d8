// Writes a file so that readers see the old content or the new, never a torn one:
// temp file in the same directory, fsync, rename, fsync of the directory. A path that names a device,
// pipe or socket is written as a stream instead (nothing there to keep, and the node must stay); through a
// symbolic link, the file it points to is replaced and the link kept.
#pragma once

#include <string>

namespace archbench {

// Throws std::runtime_error naming the path and the failing step.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace archbench
