// The operators of a parallel check phase as one queue that its workers take from, so that the
// phase ends when the work does rather than when the unluckiest fixed share does: a worker that
// drew cheap operators takes more (docs/measurement.md, "Correctness": check workers). The queue
// is a file holding the index of the next operator not yet taken (decimal text); a worker takes
// one under an exclusive flock(2) on that file, so that each index goes to exactly one worker,
// across processes and across workers that replace crashed ones.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace archbench::cli {

// Creates (or resets) the queue at `path`: nothing taken yet. Throws std::runtime_error naming the
// file when it cannot be written.
void create_work_queue(const std::string& path);

// Takes the next index below `count` from the queue at `path`, or nullopt once all are taken.
// Throws std::runtime_error naming the file when it cannot be opened, locked, read or written, or
// holds anything but a whole number.
[[nodiscard]] std::optional<size_t> take_from_work_queue(const std::string& path, size_t count);

}  // namespace archbench::cli
