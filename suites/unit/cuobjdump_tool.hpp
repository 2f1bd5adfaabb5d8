// Finds and runs NVIDIA's cuobjdump, the reference the binary reader is compared with. Tests that
// need it skip when none is installed (it ships with full toolkits and as pip `nvidia-cuda-cuobjdump`).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace archbench::test {

struct CommandResult {
  int status = -1;  // exit code, or -1 when the command could not run or was killed
  std::string output;  // stdout and stderr together
};

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` through /bin/sh with stderr folded into stdout.
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.status = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline bool is_executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// PATH, then the toolkit, then a pip install (nvidia/cu13/bin, nvidia/cuda_cuobjdump/bin, ...).
// Empty when there is none. Looked up once per process.
inline const std::string& find_cuobjdump() {
  static const std::string found = [] {
    if (const char* path = std::getenv("PATH")) {
      std::stringstream dirs(path);
      for (std::string dir; std::getline(dirs, dir, ':');) {
        if (!dir.empty() && is_executable(std::filesystem::path(dir) / "cuobjdump")) return (std::filesystem::path(dir) / "cuobjdump").string();
      }
    }
    if (is_executable("/usr/local/cuda/bin/cuobjdump")) return std::string("/usr/local/cuda/bin/cuobjdump");
    // The pip wheels install into the `nvidia` namespace package; ask Python where that lives.
    const auto py = run_command("python3 -c 'import nvidia; print(\"\\n\".join(nvidia.__path__))'");
    if (py.status == 0) {
      std::stringstream roots(py.output);
      for (std::string root; std::getline(roots, root);) {
        std::error_code ec;
        for (const auto& sub : std::filesystem::directory_iterator(root, ec)) {
          const auto candidate = sub.path() / "bin" / "cuobjdump";
          if (is_executable(candidate)) return candidate.string();
        }
      }
    }
    return std::string();
  }();
  return found;
}

// Images per target as cuobjdump names them: {"sm_90a cubin", 3}, {"sm_120 ptx", 1}. cuobjdump prints
// an `f` ELF without its `f`, an `a` ELF with its `a`, and PTX as sm_XY[a|f] (docs/reference/compat.md,
// "Fatbin and cubin layout").
struct CuobjdumpListing {
  bool ok = false;  // the command ran; `counts` is empty for a file without device code
  std::string output;
  std::map<std::string, int> counts;
};

inline CuobjdumpListing cuobjdump_list(const std::string& cuobjdump, const std::string& file) {
  CuobjdumpListing l;
  const auto r = run_command(shell_quote(cuobjdump) + " --list-elf --list-ptx " + shell_quote(file));
  l.output = r.output;
  l.ok = r.status == 0 || r.output.find("does not contain device code") != std::string::npos;
  std::stringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    // "ELF file    1: name.1.sm_80.cubin": the last two dot-separated parts.
    if (!line.starts_with("ELF file") && !line.starts_with("PTX file")) continue;
    const auto ext = line.rfind('.');
    const auto tgt = line.rfind('.', ext - 1);
    if (ext == std::string::npos || tgt == std::string::npos) continue;
    ++l.counts[line.substr(tgt + 1, ext - tgt - 1) + " " + line.substr(ext + 1)];
  }
  return l;
}

}  // namespace archbench::test
