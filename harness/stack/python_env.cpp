#include "harness/stack/python_env.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

namespace archbench::stack {
namespace fs = std::filesystem;
namespace {

// Single-quoted for /bin/sh.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string run(const std::string& command, int& status) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) {
    status = -1;
    return out;
  }
  std::array<char, 4096> buf{};
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0 && out.size() < (size_t{4} << 20);) out.append(buf.data(), n);
  status = ::pclose(p);
  return out;
}

constexpr const char* kAsk =
    "import json, site, sys, sysconfig\n"
    "p = sysconfig.get_paths()\n"
    "dirs = [p.get('purelib'), p.get('platlib')]\n"
    "try:\n    dirs += site.getsitepackages()\nexcept Exception:\n    pass\n"
    "print(json.dumps({'executable': sys.executable, 'version': sys.version.split()[0], 'prefix': sys.prefix, 'dirs': dirs}))\n";

}  // namespace

std::optional<PythonEnvironment> ask_python(const std::string& python, std::string& error) {
  int status = 0;
  const std::string out = run(quoted(python) + " -c " + quoted(kAsk) + " 2>&1", status);
  if (status != 0) {
    error = "cannot run " + python + (out.empty() ? std::string() : ": " + out.substr(0, 300));
    return std::nullopt;
  }
  try {
    const auto j = nlohmann::json::parse(out.substr(out.find('{')));
    PythonEnvironment env;
    env.executable = j.at("executable");
    env.version = j.at("version");
    env.prefix = j.at("prefix");
    std::set<std::string> seen;
    for (const auto& d : j.at("dirs")) {
      if (!d.is_string()) continue;
      std::error_code ec;
      const auto canonical = fs::canonical(d.get<std::string>(), ec);
      if (ec || !fs::is_directory(canonical)) continue;
      if (seen.insert(canonical.string()).second) env.site_dirs.push_back(canonical.string());
    }
    return env;
  } catch (const std::exception& e) {
    error = python + " gave an answer that is not the expected JSON: " + out.substr(0, 300);
    return std::nullopt;
  }
}

std::vector<std::string> outside_cuda_libraries(const Inventory& inv) {
  static const std::regex cuda_lib(R"(^lib(cudart|cublas|cublasLt|cudnn[a-z_]*|nvrtc|nvJitLink|cufft|cusparse|cusolver|curand|nccl)\.so\.\d+$)");
  std::set<std::string> provided, wanted;
  for (const auto& f : inv.files) provided.insert(fs::path(f.path).filename().string());
  for (const auto& f : inv.files) {
    for (const auto& n : f.needed) {
      if (std::regex_match(n, cuda_lib) && !provided.contains(n)) wanted.insert(n);
    }
  }
  // The loader's order: LD_LIBRARY_PATH, then its cache, then the toolkit's usual home.
  std::vector<std::string> dirs;
  if (const char* ld = std::getenv("LD_LIBRARY_PATH")) {
    std::istringstream in(ld);
    for (std::string d; std::getline(in, d, ':');) if (!d.empty()) dirs.push_back(d);
  }
  int status = 0;
  const std::string cache = run("ldconfig -p 2>/dev/null", status);
  std::vector<std::string> out;
  for (const auto& name : wanted) {
    std::string found;
    for (const auto& d : dirs) {
      if (fs::exists(fs::path(d) / name)) {
        found = (fs::path(d) / name).string();
        break;
      }
    }
    if (found.empty()) {
      const auto at = cache.find("\t" + name + " (");
      if (at != std::string::npos) {
        const auto arrow = cache.find("=> ", at);
        const auto end = cache.find('\n', arrow);
        if (arrow != std::string::npos) found = cache.substr(arrow + 3, end - arrow - 3);
      }
    }
    if (found.empty() && fs::exists("/usr/local/cuda/lib64/" + name)) found = "/usr/local/cuda/lib64/" + name;
    std::error_code ec;
    const auto real = fs::canonical(found, ec);
    if (!found.empty() && !ec) out.push_back(real.string());
  }
  std::set<std::string> unique(out.begin(), out.end());
  return {unique.begin(), unique.end()};
}

}  // namespace archbench::stack
