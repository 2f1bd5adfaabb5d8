// libFuzzer target for the PE/COFF reader (harness/binary/pe_reader through BinaryFile): the input
// is a Windows DLL, read from memory; its sections, imports, fatbin entries and kernels are listed.
// Only BinaryError may escape. Built and run by suites/fuzz/run_fuzz.sh (ctest: fuzz.pe_reader).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "harness/binary/binary_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::byte> bytes(reinterpret_cast<const std::byte*>(data), reinterpret_cast<const std::byte*>(data) + size);
  try {
    const auto file = archbench::binary::BinaryFile::from_bytes("fuzz input", std::move(bytes));
    for (const auto& name : file.needed()) {
      if (name.size() > 512) std::abort();  // the reader bounds imported names
    }
    for (const auto& k : file.kernels()) {
      if (k.mangled.empty() || k.images.empty()) std::abort();
    }
  } catch (const archbench::binary::BinaryError&) {
  }
  return 0;
}
