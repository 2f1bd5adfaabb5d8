// ArchiveReader in a build without libarchive (CMake found none): every archive fails to open,
// saying how to get wheels and images read; directories and binaries need no archive reader.
#include "harness/stack/archive_reader.hpp"

namespace archbench::stack {
namespace {

[[noreturn]] void unavailable(const std::string& name) {
  throw ArchiveError(name + ": this archbench was built without libarchive, so it cannot read wheels or container "
                            "images (install libarchive-dev, or the distribution's libarchive headers, and rebuild)");
}

}  // namespace

bool archives_supported() { return false; }

ArchiveReader::ArchiveReader(std::string name, ArchiveReader* outer) : name_(std::move(name)), outer_(outer) {}
ArchiveReader::~ArchiveReader() = default;
std::unique_ptr<ArchiveReader> ArchiveReader::open_file(const std::string& path, ArchiveFormat) { unavailable(path); }
std::unique_ptr<ArchiveReader> ArchiveReader::open_memory(const std::string& name, std::span<const std::byte>,
                                                          ArchiveFormat) {
  unavailable(name);
}
std::unique_ptr<ArchiveReader> ArchiveReader::open_member(ArchiveReader& outer, const std::string& name, ArchiveFormat) {
  unavailable(outer.name() + "!" + name);
}
long ArchiveReader::read_outer(archive*, void*, const void**) { return -1; }
void ArchiveReader::fail(const std::string& what) const { throw ArchiveError(name_ + ": " + what); }
bool ArchiveReader::next(ArchiveMember&) { unavailable(name_); }
std::span<const std::byte> ArchiveReader::peek(size_t) { unavailable(name_); }
std::vector<std::byte> ArchiveReader::read(uint64_t) { unavailable(name_); }
void ArchiveReader::fill(uint64_t, uint64_t) { unavailable(name_); }

}  // namespace archbench::stack
