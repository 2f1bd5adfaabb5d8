// Reading zip and tar archives in place with libarchive (one API for zip, tar, gzip and zstd):
// wheels and container images are never extracted to disk. Member names are data, never paths
// to write to; sizes are capped so that a member claiming gigabytes (a zip bomb) is refused
// before it is read, and one that lies about its size stops at the cap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

struct archive;  // libarchive's handle

namespace archbench::stack {

// False in a build without libarchive: every archive then fails to open with ArchiveError saying
// so (directories and single binaries are read all the same).
[[nodiscard]] bool archives_supported();

class ArchiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The most a member may hold to be read into memory: larger than any CUDA library shipped today
// (libcublasLt.so.13 is 542 MB, libtorch_cuda.so 456 MB), small enough that a bomb costs little.
inline constexpr uint64_t kMaxMemberBytes = uint64_t{1} << 30;

enum class ArchiveFormat {
  Zip,  // a wheel
  Tar,  // a tar with any compression libarchive knows (none, gzip, zstd, ...)
};

struct ArchiveMember {
  enum class Type { File, Directory, Symlink, Hardlink, Other };
  std::string name;  // as stored: may be "../x" or "/abs" in a hostile archive
  Type type = Type::Other;
  std::optional<uint64_t> size;  // declared, when the archive says
  std::string link_target;       // symlinks and hard links
};

class ArchiveReader {
 public:
  // Throws ArchiveError when the file cannot be opened as that format.
  static std::unique_ptr<ArchiveReader> open_file(const std::string& path, ArchiveFormat format);
  // The same over bytes in memory, which must outlive the reader (the fuzz target's way in).
  static std::unique_ptr<ArchiveReader> open_memory(const std::string& name, std::span<const std::byte> bytes,
                                                    ArchiveFormat format);
  // A nested archive: the current member of `outer` (a container image's layer), read as a
  // stream; `name` is what messages call it. `outer` must not move on while this reader is used.
  static std::unique_ptr<ArchiveReader> open_member(ArchiveReader& outer, const std::string& name, ArchiveFormat format);

  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;
  ~ArchiveReader();

  // The next member; false at the end. Throws ArchiveError for a corrupt or truncated archive.
  bool next(ArchiveMember& member);
  // The first bytes of the current member (fewer if it is shorter); read() still returns all of it.
  std::span<const std::byte> peek(size_t n);
  // The whole current member. Throws ArchiveError when it is corrupt or longer than `max`.
  std::vector<std::byte> read(uint64_t max = kMaxMemberBytes);
  [[nodiscard]] const std::string& name() const { return name_; }  // the archive, for messages

 private:
  ArchiveReader(std::string name, ArchiveReader* outer);
  [[noreturn]] void fail(const std::string& what) const;
  void fill(uint64_t want, uint64_t max);  // reads the current member into buffer_ up to `want` bytes

  std::string name_;
  archive* a_ = nullptr;
  ArchiveReader* outer_ = nullptr;       // the stream of a nested archive
  std::vector<std::byte> buffer_;        // the current member's bytes read so far
  std::vector<std::byte> outer_chunk_;   // the last chunk handed to libarchive from `outer_`
  static long read_outer(archive*, void* self, const void** buffer);  // libarchive's la_ssize_t
  bool member_done_ = false;
};

}  // namespace archbench::stack
