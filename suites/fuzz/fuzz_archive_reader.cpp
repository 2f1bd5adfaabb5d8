// libFuzzer target for harness/stack/archive_reader (libarchive under archbench's caps): the
// input is read as a zip (a wheel) and as a tar (a container image or layer); every member is
// listed, peeked and read. Only ArchiveError may escape; no member may come back larger than the
// cap asked for. Built and run by suites/fuzz/run_fuzz.sh (ctest: fuzz.archive_reader).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "harness/stack/archive_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace archbench::stack;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  constexpr uint64_t kCap = 1 << 20;
  for (const auto format : {ArchiveFormat::Zip, ArchiveFormat::Tar}) {
    try {
      auto r = ArchiveReader::open_memory("fuzz input", bytes, format);
      ArchiveMember m;
      for (int i = 0; i < 10000 && r->next(m); ++i) {
        if (m.type != ArchiveMember::Type::File) continue;
        (void)r->peek(4);
        if (r->read(kCap).size() > kCap) std::abort();
      }
    } catch (const ArchiveError&) {
      // Malformed, truncated or over the cap, reported as such.
    }
  }
  return 0;
}
