#include "harness/binary/binary_file.hpp"

#include <elf.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <initializer_list>
#include <map>
#include <optional>
#include <thread>
#include <unordered_map>

#include "harness/binary/decompress.hpp"
#include "harness/binary/elf_reader.hpp"
#include "harness/binary/fatbin_walk.hpp"
#include "harness/binary/kernel_names.hpp"
#include "harness/binary/mapped_file.hpp"
#include "harness/binary/pe_reader.hpp"
#include "harness/binary/toolkit_note.hpp"
#include "harness/util/parallel_for.hpp"

namespace archbench::binary {

using detail::Bytes;
using detail::ErrorSite;

namespace {

std::string describe(const std::string& path, uint64_t offset, const std::string& what) {
  return path + ": at offset " + detail::hex(offset) + ": " + what;
}

// A cubin on its own (docs/reference/compat.md, "Suffixes `a` and `f`"): the SASS arch sits in e_flags, where
// depends on the ABI version.
FatbinEntry raw_cubin_entry(const detail::ElfImage& elf, uint64_t size) {
  FatbinEntry e;
  e.raw_kind = 2;
  e.is_image = true;
  e.target.kind = arch::ImageKind::Sass;
  e.target.arch = static_cast<int>(elf.abi_version() >= 8 ? (elf.flags() >> 8) & 0xff : elf.flags() & 0xff);
  e.target.virtual_arch = e.target.arch;
  e.payload_size = size;
  e.uncompressed_size = size;
  return e;
}

// Entries run in parallel only when there are enough to pay for the threads.
constexpr size_t kParallelThreshold = 64;

}  // namespace

BinaryError::BinaryError(const std::string& path, uint64_t offset, const std::string& what)
    : std::runtime_error(describe(path, offset, what)), path_(path), offset_(offset) {}

bool may_hold_device_code(std::span<const std::byte> first) {
  auto is = [&](std::initializer_list<unsigned char> magic) {
    if (first.size() < magic.size()) return false;
    size_t i = 0;
    for (unsigned char c : magic) {
      if (first[i++] != std::byte{c}) return false;
    }
    return true;
  };
  return is({0x7f, 'E', 'L', 'F'}) || is({'M', 'Z'}) || is({0x50, 0xed, 0x55, 0xba});
}

struct BinaryFile::Impl {
  std::string path;
  std::optional<detail::MappedFile> map;  // a file on disk, or
  std::vector<std::byte> owned;           // bytes handed over (from_bytes)
  Bytes bytes;
  FileFormat format = FileFormat::Elf;
  std::vector<FatbinEntry> entries;
  std::vector<std::string> needed;
  int containers = 0;

  explicit Impl(const std::string& p) : path(p), map(std::in_place, p), bytes(map->bytes()) {}
  Impl(const std::string& name, std::vector<std::byte> data) : path(name), owned(std::move(data)), bytes(owned) {}

  void read();  // the format, every container and entry header, the linked libraries
  // Walks one section's containers, or records why it cannot be read.
  void read_device_section(std::string_view name, uint64_t offset, uint64_t size, bool past_end, bool relocatable);
  std::vector<BinaryError> section_errors;  // sections that could not be read, in file order

  // A payload as stored (a view into the map) or decompressed (owned).
  struct Payload {
    std::vector<std::byte> owned;
    Bytes bytes;
  };
  [[nodiscard]] Payload decode(const FatbinEntry& e) const;
  // The payload as stored in the file, after checking the entry against it.
  [[nodiscard]] Bytes stored_payload(const FatbinEntry& e) const;
  // A worker's buffers, reused entry after entry: the payload as stored (read with pread from a
  // file on disk) and decompressed.
  struct Scratch {
    std::vector<std::byte> stored, decoded;
  };
  // Names defined by one image entry (empty for non-images).
  [[nodiscard]] std::vector<std::string> kernel_names(const FatbinEntry& e, Scratch& scratch) const;
  [[nodiscard]] ErrorSite payload_site(const FatbinEntry& e) const;
};

ErrorSite BinaryFile::Impl::payload_site(const FatbinEntry& e) const {
  // Inside a decompressed payload there is no file offset: name the entry instead.
  if (e.compression == Compression::None) return {path, e.payload_offset};
  return {path, e.offset, std::string(compression_name(e.compression)) + " payload of the entry"};
}

Bytes BinaryFile::Impl::stored_payload(const FatbinEntry& e) const {
  // Entries come from the caller too: check them against this file again.
  const auto end = detail::checked_add(e.payload_offset, e.payload_size);
  if (!end || *end > bytes.size()) throw BinaryError(path, e.offset, "entry payload lies past the end of the file");
  if ((e.flags & detail::kFlagZlib) != 0 && e.compression == Compression::None) {
    throw BinaryError(path, e.offset, "entry uses the old (zlib) fatbin compression, which is not supported");
  }
  return bytes.subspan(e.payload_offset, e.payload_size);
}

BinaryFile::Impl::Payload BinaryFile::Impl::decode(const FatbinEntry& e) const {
  Payload p;
  p.bytes = stored_payload(e);
  if (e.compression != Compression::None) {
    p.owned = detail::decompress(e.compression, p.bytes, e.uncompressed_size, payload_site(e));
    p.bytes = p.owned;
  }
  return p;
}

std::vector<std::string> BinaryFile::Impl::kernel_names(const FatbinEntry& e, Scratch& scratch) const {
  if (!e.is_image) return {};
  Bytes stored = stored_payload(e);
  if (map) stored = map->read_at(e.payload_offset, e.payload_size, scratch.stored);
  const Bytes payload = detail::decompress_into(e.compression, stored, e.uncompressed_size, payload_site(e), scratch.decoded);
  if (e.target.kind == arch::ImageKind::Ptx) {
    return detail::ptx_kernel_names({reinterpret_cast<const char*>(payload.data()), payload.size()});
  }
  return detail::cubin_kernel_names(payload, payload_site(e));
}

// Relocatable device code (__nv_relfatbin in ELF, __nv_rel in PE) is what a device link takes
// in. In a linked executable or library it is the code that was linked, kept for later device
// links; what loads is the linked image in .nv_fatbin / .nv_fatb (cuobjdump agrees). So it
// counts in relocatable objects only; PE images (.dll, .pyd, .exe) are always linked.
static bool relocatable_code_loads(FileFormat format, uint16_t elf_type) {
  return format == FileFormat::Elf && elf_type == ET_REL;
}

void BinaryFile::Impl::read_device_section(std::string_view name, uint64_t offset, uint64_t size, bool past_end,
                                           bool relocatable) {
  // A section that cannot be read costs its own entries only; the file is unreadable when none can be.
  const size_t entries_before = entries.size();
  const int containers_before = containers;
  try {
    // For a section past the end, `offset` is where its header is.
    if (past_end) throw BinaryError(path, offset, "section " + std::string(name) + " lies past the end of the file");
    detail::walk_fatbin_section(bytes, offset, size, relocatable, path, containers, entries);
  } catch (const BinaryError& e) {
    entries.resize(entries_before);
    containers = containers_before;
    section_errors.push_back(e);
  }
}

void BinaryFile::Impl::read() {
  const Bytes file = bytes;
  const ErrorSite site(path, 0);
  if (detail::has_fatbin_magic(file)) {
    format = FileFormat::Fatbin;
    detail::walk_fatbin_section(file, 0, file.size(), false, path, containers, entries);
    return;
  }
  if (detail::has_elf_magic(file)) {
    format = FileFormat::Elf;
    const detail::ElfImage elf(file, site);
    if (elf.machine() == detail::kEmCuda) {
      format = FileFormat::Cubin;
      entries.push_back(raw_cubin_entry(elf, file.size()));
      return;
    }
    for (const auto& s : elf.sections()) {
      const bool relocatable = s.name == "__nv_relfatbin";
      if (s.name != ".nv_fatbin" && !relocatable) continue;
      if (relocatable && !relocatable_code_loads(format, elf.type())) continue;
      read_device_section(s.name, s.offset, s.size, s.past_end, relocatable);
    }
    try {
      needed = detail::needed_libraries(elf, site);
    } catch (const BinaryError& e) {
      section_errors.push_back(e);  // the device code still counts; what it links is unknown
    }
  } else if (detail::has_pe_magic(file)) {
    format = FileFormat::Pe;
    const detail::PeImage pe(file, site);
    for (const auto& s : pe.sections()) {
      const bool relocatable = s.name == "__nv_rel";
      if ((s.name != ".nv_fatb" && !relocatable) || s.raw_size == 0) continue;
      if (relocatable && !relocatable_code_loads(format, 0)) continue;
      // The raw size is rounded up to the file alignment; the virtual size is what the section holds.
      const uint32_t size = s.virtual_size != 0 ? std::min(s.virtual_size, s.raw_size) : s.raw_size;
      read_device_section(s.name, s.past_end ? s.header_offset : s.raw_offset, size, s.past_end, relocatable);
    }
    needed = pe.imported_dlls();
  } else {
    site.fail(0, "not an ELF file, PE image or fatbin");
  }
  if (entries.empty() && !section_errors.empty()) throw section_errors.front();
}

BinaryFile BinaryFile::open(const std::string& path) {
  auto impl = std::make_unique<Impl>(path);
  impl->read();
  return BinaryFile(std::move(impl));
}

BinaryFile BinaryFile::from_bytes(const std::string& name, std::vector<std::byte> bytes) {
  auto impl = std::make_unique<Impl>(name, std::move(bytes));
  impl->read();
  return BinaryFile(std::move(impl));
}

BinaryFile::BinaryFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BinaryFile::BinaryFile(BinaryFile&&) noexcept = default;
BinaryFile& BinaryFile::operator=(BinaryFile&&) noexcept = default;
BinaryFile::~BinaryFile() = default;

const std::string& BinaryFile::path() const { return impl_->path; }
FileFormat BinaryFile::format() const { return impl_->format; }
const std::vector<std::string>& BinaryFile::needed() const { return impl_->needed; }
const std::vector<FatbinEntry>& BinaryFile::entries() const { return impl_->entries; }
std::vector<std::string> BinaryFile::problems() const {
  std::vector<std::string> out;
  for (const auto& e : impl_->section_errors) out.emplace_back(e.what());
  return out;
}
int BinaryFile::container_count() const { return impl_->containers; }

std::vector<std::byte> BinaryFile::payload(const FatbinEntry& e) const {
  auto p = impl_->decode(e);
  if (e.compression == Compression::None) return {p.bytes.begin(), p.bytes.end()};
  return std::move(p.owned);
}

std::optional<arch::CudaVersion> BinaryFile::toolkit_release() const {
  // The smallest few cubins: one decompression is usually enough, and every cubin of a build
  // has the same note. PTX records only its ISA, which the image rules judge already.
  std::vector<const FatbinEntry*> cubins;
  for (const auto& e : impl_->entries) {
    if (e.is_image && e.target.kind == arch::ImageKind::Sass) cubins.push_back(&e);
  }
  std::ranges::sort(cubins, {}, [](const FatbinEntry* e) { return e->uncompressed_size; });
  std::optional<arch::CudaVersion> found;
  for (size_t i = 0; i < std::min<size_t>(cubins.size(), 3); ++i) {
    try {
      const auto payload = impl_->decode(*cubins[i]);
      const auto r = detail::cubin_toolkit_release(payload.bytes, impl_->payload_site(*cubins[i]));
      if (r) {
        found = r;
        break;
      }
    } catch (const BinaryError&) {
      // A cubin that cannot be read says nothing about its toolkit; the next may.
    }
  }
  return found;
}

std::vector<std::string> BinaryFile::kernel_names(const FatbinEntry& e) const {
  Impl::Scratch scratch;
  return impl_->kernel_names(e, scratch);
}

std::vector<KernelImages> BinaryFile::kernels() const {
  const auto& entries = impl_->entries;
  std::vector<std::vector<std::string>> names(entries.size());
  std::vector<std::exception_ptr> errors(entries.size());
  // Payloads are copied with pread into each worker's buffer (MappedFile::read_at), not read
  // through the mapping: no page faults, nothing to drop again, nothing held in this process.
  auto work = [&](size_t i, Impl::Scratch& scratch) {
    try {
      names[i] = impl_->kernel_names(entries[i], scratch);
      std::sort(names[i].begin(), names[i].end());
      names[i].erase(std::unique(names[i].begin(), names[i].end()), names[i].end());
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  if (entries.size() <= kParallelThreshold) {
    Impl::Scratch scratch;
    for (size_t i = 0; i < entries.size(); ++i) work(i, scratch);
  } else {
    std::atomic<size_t> next{0};
    const size_t workers = std::max(1U, std::thread::hardware_concurrency());
    std::vector<std::jthread> pool;
    pool.reserve(workers);
    for (size_t w = 0; w < workers; ++w) {
      pool.emplace_back([&] {
        Impl::Scratch scratch;  // this worker's buffers, reused per entry
        for (size_t i = next++; i < entries.size(); i = next++) work(i, scratch);
      });
    }
  }  // the jthreads join here
  // The first failure in file order, so that the error does not depend on scheduling.
  for (const auto& err : errors) {
    if (err) std::rethrow_exception(err);
  }

  // Merged by name through a hash index (mangled template names share long prefixes, which
  // makes ordered comparisons slow), then sorted once.
  std::vector<KernelImages> out;
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < entries.size(); ++i) {
    for (const auto& n : names[i]) {
      auto [it, inserted] = index.try_emplace(n, out.size());
      if (inserted) out.push_back(KernelImages{n, {}, {}});
      out[it->second].images.push_back(entries[i].target);
    }
  }
  std::ranges::sort(out, {}, &KernelImages::mangled);
  // Demangling tens of thousands of template names (libtorch_cuda.so: 21,132) is a good part of
  // the work: spread over the cores too.
  parallel_chunks(out.size(), 256, [&](size_t, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i].demangled = detail::demangle(out[i].mangled);
  });
  return out;
}

}  // namespace archbench::binary
