// Layer 2, the runtime: which CUDA libraries this process really mapped (from /proc/self/maps,
// after CUDA initialised), with paths and versions; other copies of them reachable through
// LD_LIBRARY_PATH and the loader cache; a stub libcuda; and the environment variables that
// change CUDA's behaviour. Unlike collect_env-style tools it asks the loaded libraries, not the
// nvcc on PATH. The parsers and the checks take plain data so that they are tested without a GPU.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/cuda_versions.hpp"
#include "harness/doctor/check_table.hpp"
#include "harness/doctor/checklist.hpp"

namespace archbench::doctor {

// A CUDA library's file name split into family and version: "libcudart.so.13.0.96" ->
// {libcudart, 13.0.96}, "libcuda.so.580.159.04" -> {libcuda, 580.159.04}, a wheel's vendored
// "libcudart-9335f6a2.so.12" -> {libcudart, 12}, "libcublas.so" -> {libcublas, ""}.
// nullopt for a file that is not one of the CUDA libraries the doctor follows.
struct LibraryName {
  std::string family;
  std::string version;
};
[[nodiscard]] std::optional<LibraryName> cuda_library_name(std::string_view file_name);

// Two versions conflict when they differ in a component both give ("12" vs "13.0" conflict,
// "13" vs "13.0.96" do not).
[[nodiscard]] bool versions_conflict(std::string_view a, std::string_view b);

// The files mapped into a process, from /proc/<pid>/maps text, first-seen order, no duplicates.
[[nodiscard]] std::vector<std::string> mapped_files(std::string_view maps_text);

// `ldconfig -p` lines: "\tlibcudart.so.13 (libc6,x86-64) => /usr/local/cuda/lib64/libcudart.so.13".
struct LoaderCacheEntry {
  std::string name;
  std::string flags;  // "libc6,x86-64"
  std::string path;
};
[[nodiscard]] std::vector<LoaderCacheEntry> parse_loader_cache(std::string_view ldconfig_output);

// One copy of a CUDA library: mapped into this process, or only reachable.
struct LibraryCopy {
  std::string family;     // "libcudart"
  std::string path;       // as found
  std::string real_path;  // symlinks resolved
  std::string version;    // from the resolved file name, else its SONAME; refined by the library's own API when mapped
  std::string via;        // "mapped", "LD_LIBRARY_PATH", "loader cache"
  [[nodiscard]] bool stub() const;  // a link-time stub (".../stubs/libcuda.so"), not the driver
};

// A copy as found at `path`: resolves symlinks, takes the version from the file name or the SONAME.
[[nodiscard]] LibraryCopy describe_copy(const std::string& path, const std::string& via);

// Every copy of the given families in the LD_LIBRARY_PATH directories and the loader cache.
[[nodiscard]] std::vector<LibraryCopy> find_reachable_copies(const std::vector<std::string>& families,
                                                             std::string_view ld_library_path,
                                                             const std::vector<LoaderCacheEntry>& cache);

struct RuntimeFacts {
  std::vector<LibraryCopy> mapped;     // CUDA libraries in /proc/self/maps
  std::vector<LibraryCopy> reachable;  // copies reachable through LD_LIBRARY_PATH or the loader cache
  bool loader_cache_read = false;
  std::string loader_cache_note;           // why it was not read
  std::map<std::string, std::string> env;  // the process environment
  bool cuda_cache_path_writable = true;    // this user can write (or create) CUDA_CACHE_PATH; true when unset
  // What the loaded libraries say about themselves.
  arch::CudaVersion runtime;   // cudaRuntimeGetVersion
  arch::CudaVersion driver;    // cudaDriverGetVersion
  std::string cublas_version;  // cublasGetProperty: "13.1.0"
  int cublas_cudart = 0;       // cublasGetCudartVersion
  std::string cudnn_version;   // cudnnGetVersion: "9.14.0"
  int cudnn_cudart = 0;        // cudnnGetCudartVersion
  // What this build was compiled with (the build manifest).
  std::string nvcc_version, cublas_headers, cudnn_headers;
};

// Reads /proc/self/maps, runs ldconfig -p, scans LD_LIBRARY_PATH, asks the loaded libraries.
// Call after CUDA initialised (probe_environment), so that libcuda is mapped when there is one.
[[nodiscard]] RuntimeFacts gather_runtime_facts(arch::CudaVersion runtime, arch::CudaVersion driver);

// The layer's checks, in the report's order (runtime_checks.cpp): loaded-libraries (what is mapped),
// duplicate:<family> (a FAIL per family mapped twice), stub-libcuda, other-copies:<family>,
// loader-cache (SKIP when it was not read), library-versions (runtime, cuBLAS, cuDNN), env:<VARIABLE>
// (JIT switches, behaviour variables, module loading, the cache path, LD_PRELOAD), environment (what
// is set). gather_runtime_facts (runtime_facts.cpp) reads the system; the checks only judge its facts.
[[nodiscard]] std::span<const Check<RuntimeFacts>> runtime_checks();
// Every check of the table.
void check_runtime(const RuntimeFacts& f, Checklist& out);

}  // namespace archbench::doctor
