// libFuzzer target for harness/binary: the input is a whole file (ELF, fatbin or cubin); open it,
// list its kernels and decode every payload. Only BinaryError may escape the reader.
// Built and run for a bounded time by suites/fuzz/run_fuzz.sh (ctest: fuzz.binary_reader), with clang:
//   suites/fuzz/run_fuzz.sh <source dir> <scratch dir> <seconds>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "harness/binary/binary_file.hpp"

namespace {

// BinaryFile reads paths: one in-memory file, rewritten for every input, avoids disk traffic.
int memory_file() {
  static const int fd = [] {
    const int f = ::memfd_create("fuzz_binary_reader", 0);
    if (f < 0) std::abort();
    return f;
  }();
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memory_file();
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    const auto file = archbench::binary::BinaryFile::open(path);
    for (const auto& k : file.kernels()) {
      if (k.mangled.empty() || k.images.empty()) std::abort();  // every listed kernel has a name and an image
    }
    for (const auto& e : file.entries()) {
      if (file.payload(e).size() != e.uncompressed_size) std::abort();
    }
  } catch (const archbench::binary::BinaryError&) {
    // Malformed input, reported as such: the expected outcome for most inputs.
  }
  return 0;
}
