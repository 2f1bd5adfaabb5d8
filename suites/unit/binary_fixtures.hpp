// Objects and executables with known device code, compiled by the build's nvcc from
// suites/fixtures/two_kernels.cu on first use and cached for the rest of the test binary's run: by
// fixed nvcc flags (binary_fixture_flags), or by an arch list with the flags archbench's own build
// takes from it (for_arch_list).
#pragma once

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/arch/arch_list.hpp"
#include "harness/arch/cuda_versions.hpp"
#include "harness/arch/target.hpp"
#include "suites/unit/cuobjdump_tool.hpp"
#include "suites/unit/toolkit_fixture.hpp"

namespace archbench::test {

// nvcc arguments of each fixture; all but "exe" are `-c` objects.
inline const std::map<std::string, std::string>& binary_fixture_flags() {
  static const std::map<std::string, std::string> flags = {
      {"sm80", "-c -gencode arch=compute_80,code=sm_80"},
      {"ptx80", "-c -gencode arch=compute_80,code=compute_80"},
      {"sm80_ptx90", "-c -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90"},
      {"sm90a", "-c -gencode arch=compute_90a,code=sm_90a"},
      {"sm100f", "-c -gencode arch=compute_100f,code=sm_100f"},
      {"sm120a_ptx120", "-c -gencode arch=compute_120a,code=sm_120a -gencode arch=compute_120,code=compute_120"},
      {"rdc", "-c -rdc=true -gencode arch=compute_80,code=[sm_80,compute_80]"},
      {"mode_default", "-c --compress-mode=default -gencode arch=compute_80,code=[sm_80,compute_80]"},
      {"mode_size", "-c --compress-mode=size -gencode arch=compute_80,code=[sm_80,compute_80]"},
      {"mode_speed", "-c --compress-mode=speed -gencode arch=compute_80,code=[sm_80,compute_80]"},
      {"mode_none", "-c --compress-mode=none -gencode arch=compute_80,code=[sm_80,compute_80]"},
      {"exe", "-DARCHBENCH_FIXTURE_MAIN -gencode arch=compute_80,code=[sm_80,compute_80]"},
  };
  return flags;
}

class BinaryFixtures {
 public:
  static BinaryFixtures& instance() {
    static BinaryFixtures f;
    return f;
  }
  BinaryFixtures(const BinaryFixtures&) = delete;
  BinaryFixtures& operator=(const BinaryFixtures&) = delete;
  ~BinaryFixtures() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

  // Path of the compiled fixture; throws with nvcc's output when it does not compile.
  const std::string& path(const std::string& name) {
    return compile(name, binary_fixture_flags().at(name), name == "exe" ? name : name + ".o");
  }

  // The `-c` object of an arch list ("9.0a;8.0+PTX"): -gencode flags from arch::ArchList::nvcc_flags, as
  // archbench's CMake takes them, by nvcc 13.0's grammar (suites/unit/toolkit_fixture.hpp).
  const std::string& for_arch_list(const std::string& list) {
    std::string flags = "-c";
    for (const auto& f : arch::parse_arch_list(list, nvcc_13_0()).nvcc_flags()) flags += " " + f;
    std::string file = "list_";
    for (const char c : list) file += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return compile("list:" + list, flags, file + ".o");
  }

  // This nvcc's release (13.0), from `nvcc --version`: the driver the fixtures' PTX needs.
  arch::CudaVersion nvcc_version() {
    const std::lock_guard lock(mutex_);
    if (!version_) {
      const auto r = run_command(shell_quote(ARCHBENCH_TEST_NVCC) + " --version");
      const auto at = r.output.find("release ");
      int major = 0;
      int minor = 0;
      if (at == std::string::npos || std::sscanf(r.output.c_str() + at, "release %d.%d", &major, &minor) != 2) {
        throw std::runtime_error("cannot read the nvcc version:\n" + r.output);
      }
      version_ = arch::CudaVersion::from(major, minor);
    }
    return *version_;
  }

  // The PTX ISA this nvcc writes (9.0 for 13.0).
  arch::PtxIsa ptx_isa() { return arch::ptx_isa_of_cuda(nvcc_version()).value_or(arch::PtxIsa{}); }

 private:
  BinaryFixtures()
      : dir_(std::filesystem::temp_directory_path() / ("archbench_binary_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  const std::string& compile(const std::string& key, const std::string& flags, const std::string& file) {
    const std::lock_guard lock(mutex_);
    if (auto it = built_.find(key); it != built_.end()) return it->second;
    const auto out = (dir_ / file).string();
    const auto r = run_command(shell_quote(ARCHBENCH_TEST_NVCC) + " " + flags + " -o " + shell_quote(out) + " " +
                               shell_quote(std::string(ARCHBENCH_TEST_FIXTURES) + "/two_kernels.cu"));
    if (r.status != 0) throw std::runtime_error("nvcc " + flags + " failed:\n" + r.output);
    return built_.emplace(key, out).first->second;
  }

  std::filesystem::path dir_;
  std::mutex mutex_;
  std::map<std::string, std::string> built_;
  std::optional<arch::CudaVersion> version_;
};

inline const std::string& binary_fixture(const std::string& name) { return BinaryFixtures::instance().path(name); }

inline std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace archbench::test
