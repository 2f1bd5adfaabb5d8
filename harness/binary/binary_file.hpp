// Reads the CUDA device code embedded in a file, without the toolkit and without a GPU:
// ELF executables, shared libraries and relocatable objects (their .nv_fatbin and __nv_relfatbin
// sections, several fatbin containers back to back), Windows PE images (.dll, .pyd: section
// .nv_fatb), and raw fatbin or cubin files; plus the libraries a file links to. Relocatable
// device code counts only in relocatable objects, where it is what a device link loads.
// Layout: docs/reference/compat.md, "Fatbin and cubin layout". The file is memory-mapped; every offset and size read
// from it is bounds-checked, and a malformed file raises BinaryError naming the file and offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/arch/target.hpp"
#include "harness/arch/cuda_versions.hpp"
#include "harness/util/enum_names.hpp"

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
inline constexpr auto kCompressions = enum_names<Compression>(
    {{Compression::None, "none"}, {Compression::Lz4, "lz4"}, {Compression::Zstd, "zstd"}});
[[nodiscard]] constexpr std::string_view compression_name(Compression c) { return name_of(kCompressions, c); }

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

enum class FileFormat { Elf, Cubin, Fatbin, Pe };
inline constexpr auto kFileFormats = enum_names<FileFormat>(
    {{FileFormat::Elf, "ELF"}, {FileFormat::Cubin, "cubin"}, {FileFormat::Fatbin, "fatbin"}, {FileFormat::Pe, "PE"}});
[[nodiscard]] constexpr std::string_view format_name(FileFormat f) { return name_of(kFileFormats, f); }

// Whether the first bytes of a file are those of a format BinaryFile reads (ELF, PE's "MZ",
// the fatbin magic): everything else can be skipped without reading further.
[[nodiscard]] bool may_hold_device_code(std::span<const std::byte> first_bytes);

// For an open ELF file: whether it is a cubin or has a .nv_fatbin / __nv_relfatbin section, read
// with a few small preads (header, section table, section names) instead of a mapping; true also
// when the headers are odd, so that the full reader reports what is wrong. A scan asks this of
// every ELF file it meets, most of which are plain host libraries.
[[nodiscard]] bool elf_names_device_code(int fd, uint64_t file_size);

class BinaryFile {
 public:
  // Maps the file and walks every container and entry header (no decompression).
  // Throws BinaryError for anything malformed, std::system_error when the file cannot be read.
  static BinaryFile open(const std::string& path);
  // The same over bytes already in memory (a member of a wheel or a container image); `name`
  // is what errors and path() report.
  static BinaryFile from_bytes(const std::string& name, std::vector<std::byte> bytes);

  BinaryFile(BinaryFile&&) noexcept;
  BinaryFile& operator=(BinaryFile&&) noexcept;
  ~BinaryFile();

  [[nodiscard]] const std::string& path() const;
  [[nodiscard]] FileFormat format() const;
  [[nodiscard]] const std::vector<FatbinEntry>& entries() const;
  // Sections that could not be read while others could (a corrupt container, a section past the
  // end of the file, a bad dynamic section): the entries above are those of the readable ones.
  // A file none of whose device-code sections can be read throws instead.
  [[nodiscard]] std::vector<std::string> problems() const;
  // The libraries it links to: ELF DT_NEEDED ("libcudart.so.13"), PE imports ("cudart64_12.dll").
  [[nodiscard]] const std::vector<std::string>& needed() const;
  [[nodiscard]] int container_count() const;
  // The CUDA toolkit that compiled its device code, from its cubins' toolkit notes (toolkit_note.hpp);
  // nullopt when no cubin has one. Decompresses one small cubin.
  [[nodiscard]] std::optional<arch::CudaVersion> toolkit_release() const;
  // Decompresses an entry's payload (bounded by its declared uncompressed size and a hard cap).
  [[nodiscard]] std::vector<std::byte> payload(const FatbinEntry& e) const;
  // The kernels one image entry defines (decompressing it); empty for other kinds of entry.
  [[nodiscard]] std::vector<std::string> kernel_names(const FatbinEntry& e) const;
  // Kernel names per image: cubin symbols that are entry functions, PTX `.entry` lines.
  // Decompresses and parses every image entry (in parallel where there are many).
  [[nodiscard]] std::vector<KernelImages> kernels() const;

 private:
  struct Impl;
  explicit BinaryFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace archbench::binary
