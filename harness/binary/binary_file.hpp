// Reads the CUDA device code embedded in a file, without the toolkit and without a GPU:
// ELF executables, shared libraries and relocatable objects (their .nv_fatbin and __nv_relfatbin
// sections, several fatbin containers back to back), and raw fatbin or cubin files.
// Layout: docs/reference/compat.md, "Fatbin and cubin layout". The file is memory-mapped; every offset and size read
// from it is bounds-checked, and a malformed file raises BinaryError naming the file and offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/arch/target.hpp"

namespace archbench::binary {

class BinaryError : public std::runtime_error {
 public:
  BinaryError(const std::string& path, uint64_t offset, const std::string& what);
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] uint64_t offset() const { return offset_; }

 private:
  std::string path_;
  uint64_t offset_;
};

enum class Compression { None, Lz4, Zstd };
[[nodiscard]] std::string_view compression_name(Compression c);  // "none", "lz4", "zstd"

// One entry of a fatbin container.
struct FatbinEntry {
  uint16_t raw_kind = 0;           // 1 PTX, 2 ELF (cubin), 8 LTO-IR, ... (see Layout above)
  bool is_image = false;           // raw_kind is 1 or 2: an image the driver can load or JIT
  arch::CodeTarget target;         // kind, arch, a/f suffix from the flags; ptx_isa for PTX
  Compression compression = Compression::None;
  uint64_t flags = 0;              // the raw entry flags (see Layout above), e.g. 0x2 debug
  uint64_t offset = 0;             // file offset of the entry header
  uint64_t payload_offset = 0;     // file offset of the (possibly compressed) payload
  uint64_t payload_size = 0;       // bytes stored in the file
  uint64_t uncompressed_size = 0;  // bytes after decompression (== payload_size when not compressed)
  int container = 0;               // index of its container in file order (0 for a raw cubin, which has none)
  bool relocatable = false;        // from __nv_relfatbin (-rdc objects)
};

// Every image that defines one kernel (by mangled name).
struct KernelImages {
  std::string mangled;
  std::string demangled;
  std::vector<arch::CodeTarget> images;  // one per fatbin entry that defines it, in file order
};

class BinaryFile {
 public:
  // Maps the file and walks every container and entry header (no decompression).
  // Throws BinaryError for anything malformed, std::system_error when the file cannot be read.
  static BinaryFile open(const std::string& path);

  BinaryFile(BinaryFile&&) noexcept;
  BinaryFile& operator=(BinaryFile&&) noexcept;
  ~BinaryFile();

  [[nodiscard]] const std::string& path() const;
  [[nodiscard]] const std::vector<FatbinEntry>& entries() const;
  [[nodiscard]] int container_count() const;
  // Decompresses an entry's payload (bounded by its declared uncompressed size and a hard cap).
  [[nodiscard]] std::vector<std::byte> payload(const FatbinEntry& e) const;
  // Kernel names per image: cubin symbols that are entry functions, PTX `.entry` lines.
  // Decompresses and parses every image entry (in parallel where there are many).
  [[nodiscard]] std::vector<KernelImages> kernels() const;

 private:
  struct Impl;
  explicit BinaryFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace archbench::binary
