// The runtime layer's facts, gathered from this process and the system (runtime_layer.hpp).
#include "harness/doctor/runtime_layer.hpp"

#include <cublas_v2.h>
#include <cudnn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/binary/soname.hpp"
#include "harness/device/environment.hpp"
#include "harness/doctor/text.hpp"
#include "harness/manifest/build_manifest.hpp"

extern char** environ;

namespace archbench::doctor {
namespace {

namespace fs = std::filesystem;

bool is_hex(std::string_view s) {
  return !s.empty() && std::ranges::all_of(s, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

bool is_version(std::string_view s) {
  return !s.empty() && std::isdigit(static_cast<unsigned char>(s.front())) != 0 &&
         std::ranges::all_of(s, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.'; });
}

bool followed(std::string_view family) {
  static const std::set<std::string, std::less<>> known{
      "libcuda",      "libcudart", "libcublas",   "libcublasLt",  "libcudnn",
      "libnvidia-ml", "libnccl",   "libnvrtc",    "libnvJitLink", "libnvidia-ptxjitcompiler",
      "libcufft",     "libcurand", "libcusparse", "libcusolver",  "libcupti"};
  return known.contains(family) || family.starts_with("libcudnn_");
}

// `ldconfig -p`, from the usual places; nullopt when there is none or it fails.
std::optional<std::string> run_ldconfig(std::string& note) {
  std::string exe;
  for (const char* candidate : {"/sbin/ldconfig", "/usr/sbin/ldconfig", "/bin/ldconfig", "/usr/bin/ldconfig"}) {
    if (access(candidate, X_OK) == 0) {
      exe = candidate;
      break;
    }
  }
  if (exe.empty()) {
    note = "no ldconfig in /sbin, /usr/sbin, /bin or /usr/bin (a minimal image?): the loader cache was not searched";
    return std::nullopt;
  }
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    note = "cannot create a pipe for " + exe;
    return std::nullopt;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::string arg0 = exe, arg1 = "-p";
  std::array<char*, 3> argv{arg0.data(), arg1.data(), nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    note = "cannot run " + exe + " -p";
    return std::nullopt;
  }
  std::string text;
  std::array<char, 65536> buf{};
  for (;;) {
    const ssize_t n = read(out[0], buf.data(), buf.size());
    if (n > 0)
      text.append(buf.data(), static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    note = exe + " -p failed: the loader cache was not searched";
    return std::nullopt;
  }
  return text;
}

// Whether this user can create `path`: it, or the nearest of its parents that exists, is writable.
bool can_create(const std::string& path) {
  std::error_code ec;
  fs::path p = path;
  while (!p.empty() && !fs::exists(p, ec) && p.has_parent_path() && p.parent_path() != p) p = p.parent_path();
  return !p.empty() && access(p.c_str(), W_OK) == 0;
}

// "13.1.0" from cuBLAS itself.
std::string cublas_version() {
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(MINOR_VERSION, &minor) != CUBLAS_STATUS_SUCCESS ||
      cublasGetProperty(PATCH_LEVEL, &patch) != CUBLAS_STATUS_SUCCESS) {
    return {};
  }
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string cudnn_version() {
  const size_t v = cudnnGetVersion();  // major*10000 + minor*100 + patch since cuDNN 9
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

}  // namespace

const std::vector<std::string>& followed_families() {
  static const std::vector<std::string> families{
      "libcuda",  "libcudart",    "libcublas", "libcublasLt", "libcudnn", "libnvidia-ml", "libnvidia-ptxjitcompiler",
      "libnvrtc", "libnvJitLink", "libnccl"};
  return families;
}

std::optional<LibraryName> cuda_library_name(std::string_view file_name) {
  const auto so = file_name.find(".so");
  if (so == std::string_view::npos || so == 0) return std::nullopt;
  const std::string_view rest = file_name.substr(so + 3);
  if (!rest.empty() && rest.front() != '.') return std::nullopt;  // "libfoo.something"
  std::string_view base = file_name.substr(0, so);
  // A wheel's vendored copy: "libcudart-9335f6a2" (auditwheel appends 8 hex digits).
  if (const auto dash = base.rfind('-');
      dash != std::string_view::npos && base.size() - dash - 1 == 8 && is_hex(base.substr(dash + 1))) {
    base = base.substr(0, dash);
  }
  if (!followed(base)) return std::nullopt;
  std::string version = rest.empty() ? std::string() : std::string(rest.substr(1));
  if (!version.empty() && !is_version(version)) {
    // "libcudnn.so.9.bak": keep the leading dotted number only.
    size_t n = 0;
    while (n < version.size() && (std::isdigit(static_cast<unsigned char>(version[n])) != 0 || version[n] == '.')) ++n;
    version = version.substr(0, n);
    while (!version.empty() && version.back() == '.') version.pop_back();
  }
  return LibraryName{std::string(base), version};
}

bool versions_conflict(std::string_view a, std::string_view b) {
  const auto pa = split(a, '.'), pb = split(b, '.');
  for (size_t i = 0; i < std::min(pa.size(), pb.size()); ++i) {
    const bool numeric = is_version(pa[i]) && is_version(pb[i]);
    if (numeric ? std::stoll(pa[i]) != std::stoll(pb[i]) : pa[i] != pb[i]) return true;
  }
  return false;
}

std::vector<std::string> mapped_files(std::string_view maps_text) {
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;
  for (const auto& line : split(maps_text, '\n')) {
    // address perms offset dev inode [path]; the path may contain spaces.
    std::string_view rest = line;
    for (int field = 0; field < 5; ++field) {
      const auto start = rest.find_first_not_of(' ');
      if (start == std::string_view::npos) {
        rest = {};
        break;
      }
      rest.remove_prefix(start);
      const auto end = rest.find(' ');
      rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    }
    const auto start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) continue;
    std::string_view path = rest.substr(start);
    if (path.empty() || path.front() != '/') continue;  // [heap], [vdso], anonymous
    if (path.ends_with(" (deleted)")) path.remove_suffix(10);
    if (seen.insert(std::string(path)).second) out.emplace_back(path);
  }
  return out;
}

std::vector<LoaderCacheEntry> parse_loader_cache(std::string_view ldconfig_output) {
  std::vector<LoaderCacheEntry> out;
  for (const auto& raw : split(ldconfig_output, '\n')) {
    const std::string line = trim(raw);
    const auto open = line.find(" (");
    const auto arrow = line.find(") => ");
    if (open == std::string::npos || arrow == std::string::npos || arrow < open) continue;
    LoaderCacheEntry e;
    e.name = line.substr(0, open);
    e.flags = line.substr(open + 2, arrow - open - 2);
    e.path = line.substr(arrow + 5);
    if (e.name.empty() || e.path.empty()) continue;
    out.push_back(std::move(e));
  }
  return out;
}

bool LibraryCopy::stub() const {
  return path.find("/stubs/") != std::string::npos || real_path.find("/stubs/") != std::string::npos;
}

LibraryCopy describe_copy(const std::string& path, const std::string& via) {
  LibraryCopy c;
  c.path = path;
  c.via = via;
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  c.real_path = ec ? path : real.string();
  const auto name = cuda_library_name(fs::path(c.real_path).filename().string());
  const auto as_found = cuda_library_name(fs::path(path).filename().string());
  c.family = name ? name->family : as_found ? as_found->family : std::string();
  c.version = name ? name->version : std::string();
  if (split(c.version, '.').size() < 2) {
    // "libcudart.so.13" or an unversioned file: the SONAME may say more, never less.
    if (auto soname = binary::read_soname(c.real_path)) {
      if (auto n = cuda_library_name(*soname);
          n && split(n->version, '.').size() > split(c.version, '.').size()) {
        c.version = n->version;
      }
    }
  }
  return c;
}

std::vector<LibraryCopy> find_reachable_copies(const std::vector<std::string>& families,
                                               std::string_view ld_library_path,
                                               const std::vector<LoaderCacheEntry>& cache) {
  std::vector<LibraryCopy> out;
  std::set<std::string> real_paths;
  auto wanted = [&](const std::string& file) {
    const auto n = cuda_library_name(file);
    return n && std::ranges::find(families, n->family) != families.end();
  };
  auto add = [&](const std::string& path, const std::string& via) {
    LibraryCopy c = describe_copy(path, via);
    if (real_paths.insert(c.real_path).second) out.push_back(std::move(c));
  };
  for (const auto& dir : split(ld_library_path, ':')) {
    if (dir.empty()) continue;
    std::error_code ec;
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      names.push_back(it->path().filename().string());
    }
    std::ranges::sort(names);  // versioned names after the bare symlink: a stable report
    for (const auto& name : names) {
      if (wanted(name)) add((fs::path(dir) / name).string(), "LD_LIBRARY_PATH (" + dir + ")");
    }
  }
  for (const auto& e : cache) {
#if defined(__x86_64__)
    if (e.flags.find("x86-64") == std::string::npos) continue;  // 32-bit or foreign entries
#elif defined(__aarch64__)
    if (e.flags.find("AArch64") == std::string::npos) continue;
#endif
    if (wanted(e.name)) add(e.path, "loader cache");
  }
  return out;
}

RuntimeFacts gather_runtime_facts(arch::CudaVersion runtime, arch::CudaVersion driver) {
  RuntimeFacts f;
  f.runtime = runtime;
  f.driver = driver;
  f.cublas_version = cublas_version();
  f.cublas_cudart = static_cast<int>(cublasGetCudartVersion());
  f.cudnn_version = cudnn_version();
  f.cudnn_cudart = static_cast<int>(cudnnGetCudartVersion());
  const auto& m = build_manifest();
  f.nvcc_version = m.nvcc_version;
  f.cublas_headers = m.cublas_header_version;
  f.cudnn_headers = m.cudnn_header_version;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    f.env[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
  }
  if (const auto it = f.env.find("CUDA_CACHE_PATH"); it != f.env.end())
    f.cuda_cache_path_writable = can_create(it->second);

  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  std::vector<std::string> families = followed_families();
  for (const auto& path : mapped_files(text.str())) {
    auto n = cuda_library_name(fs::path(path).filename().string());
    if (!n) continue;
    LibraryCopy c = describe_copy(path, "mapped");
    // The library's own answer is more precise than "libcudart.so.13".
    auto refine = [&](const std::string& api) {
      if (!api.empty() && !versions_conflict(c.version, api) && api.size() > c.version.size()) c.version = api;
    };
    if (c.family == "libcudart" && runtime.known()) refine(runtime.str());
    if (c.family == "libcublas" || c.family == "libcublasLt") refine(f.cublas_version);
    if (c.family == "libcudnn" || c.family.starts_with("libcudnn_")) refine(f.cudnn_version);
    if (std::ranges::find(families, c.family) == families.end()) families.push_back(c.family);
    f.mapped.push_back(std::move(c));
  }

  std::vector<LoaderCacheEntry> cache;
  if (auto out = run_ldconfig(f.loader_cache_note)) {
    cache = parse_loader_cache(*out);
    f.loader_cache_read = true;
  }
  const auto ld = f.env.contains("LD_LIBRARY_PATH") ? f.env.at("LD_LIBRARY_PATH") : std::string();
  for (auto& c : find_reachable_copies(families, ld, cache)) {
    const bool loaded = std::ranges::any_of(f.mapped, [&](const LibraryCopy& m) { return m.real_path == c.real_path; });
    if (!loaded) f.reachable.push_back(std::move(c));
  }
  return f;
}

}  // namespace archbench::doctor
