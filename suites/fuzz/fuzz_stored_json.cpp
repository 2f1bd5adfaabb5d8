// libFuzzer target for the stored-file loaders (run results, baselines, thresholds): any bytes
// either load or raise StoredFileError naming the file. Nothing else may escape.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "harness/baseline/baseline_file.hpp"
#include "harness/baseline/compare.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = ::memfd_create("fuzz_stored_json", 0);
  if (fd < 0 || ::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) std::abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  using namespace archbench;
  try {
    const auto runs = load_run_results(path);
    if (runs.empty()) std::abort();
    (void)merge_runs(runs);
  } catch (const StoredFileError&) {
  }
  try {
    const auto b = load_baseline(path);
    (void)compare_results(b, b, Thresholds{});
  } catch (const StoredFileError&) {
  }
  try {
    (void)Thresholds::load(path);
  } catch (const StoredFileError&) {
  }
  return 0;
}
