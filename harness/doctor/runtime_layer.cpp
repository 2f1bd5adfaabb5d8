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

using enum FieldCause;
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

std::vector<std::string> split_version(std::string_view v) {
  std::vector<std::string> parts;
  for (const auto& p : split(v, '.')) parts.push_back(p);
  return parts;
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

std::string describe(const LibraryCopy& c) {
  return c.family + " " + (c.version.empty() ? std::string("(version unknown)") : c.version) + "  " + c.real_path +
         (c.path != c.real_path ? " (as " + c.path + ")" : "");
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

std::string cuda_version_text(int v) { return arch::CudaVersion{v}.str(); }

bool flag_set(const std::string& value) { return !value.empty() && value != "0"; }

std::optional<std::string> env_value(const RuntimeFacts& f, const std::string& name) {
  const auto it = f.env.find(name);
  return it == f.env.end() ? std::nullopt : std::optional(it->second);
}

// What a variable that changes CUDA's behaviour does, and what to do about it.
struct EnvEffect {
  std::string effect;
  std::string fix;
  FieldCauses causes;
};

Finding variable_is_set(const std::string& name, const std::string& value, const EnvEffect& e) {
  return Finding(Layer::Runtime, "env:" + name, Outcome::Warn, name + "=" + value + " is set", e.effect, e.fix,
                 e.causes);
}

const EnvEffect& jit_switch_effect(JitSwitch s) {
  static const EnvEffect disable{
      "the driver may not JIT-compile PTX: a kernel without SASS for the device fails with "
      "cudaErrorJitCompilationDisabled (223), but only when the JIT cache is cold (a cache hit bypasses it), so the "
      "same binary passes on one machine and fails on another",
      "unset it; to prove that every kernel has SASS, run `archbench doctor --jit-passes` (it sets it with "
      "CUDA_CACHE_DISABLE=1 in a child process only)",
      {PtxJitReliance}};
  static const EnvEffect force{
      "embedded SASS is ignored: every kernel is JIT-compiled from PTX at first use, kernels without PTX fail with "
      "'no kernel image' (209), and a library without PTX can fail as early as its handle creation (cuBLAS)",
      "unset it (use it only to test PTX coverage, as `archbench doctor --jit-passes` does in a child process)",
      {PtxJitReliance}};
  return s == JitSwitch::DisablePtxJit ? disable : force;
}

// The other variables that change CUDA's behaviour, each read under its own name.
struct EnvRule {
  std::vector<std::string_view> names;
  bool flag = true;  // only a value other than "" and "0" counts; else being set at all does
  EnvEffect what;
};

const std::vector<EnvRule>& env_rules() {
  static const std::vector<EnvRule> rules{
      {{"CUDA_CACHE_DISABLE"},
       true,
       {"JIT-compiled PTX is not cached: every process start compiles it again", "unset CUDA_CACHE_DISABLE",
        {PtxJitReliance, LazyLoadingDefersFailure}}},
      {{"CUDA_LAUNCH_BLOCKING"},
       true,
       {"every kernel launch waits for the kernel to finish: errors point at the right call, but timings and "
        "throughput are serialized",
        "unset it outside debugging (archbench sets it only in its check worker)",
        {}}},
      {{"CUDA_INJECTION64_PATH", "CUDA_INJECTION32_PATH", "NSIGHT_CUDA_DEBUGGER", "CUDA_AUTO_BOOST",
        "CUDA_ENABLE_COREDUMP_ON_EXCEPTION", "CUDA_COREDUMP_FILE", "CUDA_DEVICE_WAITS_ON_EXCEPTION", "CUDA_PROFILE",
        "COMPUTE_PROFILE", "OPENCL_PROFILE"},
       false,
       {"a tool, debugger or profiler hooks into CUDA (DCGM's software check warns on it too): timings and error "
        "behaviour change",
        "unset it for benchmarks and CI gates",
        {}}},
  };
  return rules;
}

// The mapped copies of each family, one per file (a file mapped under two names is one copy).
std::map<std::string, std::vector<const LibraryCopy*>> loaded_by_family(const RuntimeFacts& f) {
  std::map<std::string, std::vector<const LibraryCopy*>> by_family;
  for (const auto& c : f.mapped) {
    auto& copies = by_family[c.family];
    if (std::ranges::none_of(copies, [&](const LibraryCopy* o) { return o->real_path == c.real_path; }))
      copies.push_back(&c);
  }
  return by_family;
}

// The reachable copies of one family whose versions disagree with the loaded one, or, when none is
// loaded, with each other (then all of them: whoever loads the family may get any).
std::vector<const LibraryCopy*> conflicting_copies(const std::vector<const LibraryCopy*>& reachable,
                                                   const std::vector<const LibraryCopy*>& loaded) {
  if (!loaded.empty()) {
    std::vector<const LibraryCopy*> conflicting;
    for (const auto* c : reachable) {
      if (versions_conflict(c->version, loaded.front()->version)) conflicting.push_back(c);
    }
    return conflicting;
  }
  const bool disagree = std::ranges::any_of(
      reachable, [&](const LibraryCopy* c) { return versions_conflict(c->version, reachable.front()->version); });
  return disagree ? reachable : std::vector<const LibraryCopy*>{};
}

// How to make the conflicting copies unreachable: their LD_LIBRARY_PATH directories, the loader cache.
std::string other_copies_fix(const std::vector<const LibraryCopy*>& conflicting) {
  std::vector<std::string> dirs;
  bool from_cache = false;
  for (const auto* c : conflicting) {
    if (c->via == "loader cache")
      from_cache = true;
    else
      dirs.push_back(fs::path(c->path).parent_path().string());
  }
  std::ranges::sort(dirs);
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  std::string fix;
  if (!dirs.empty())
    fix = "remove " + join(dirs, ", ") +
          " from LD_LIBRARY_PATH (do not export another CUDA's lib directory when a program brings its own)";
  if (from_cache) {
    fix += std::string(fix.empty() ? "" : "; ") +
           "the loader cache lists the other copy: remove its directory from /etc/ld.so.conf.d and run ldconfig, or "
           "uninstall that toolkit";
  }
  return fix + "; load versioned sonames";
}

// One disagreement between the loaded libraries, or between one of them and this build.
struct VersionProblem {
  std::string problem;
  std::string fix;
  Outcome outcome;
};

std::optional<VersionProblem> runtime_older_than_nvcc(const RuntimeFacts& f) {
  if (!f.runtime.known() || f.nvcc_version.empty() || compare_versions(f.nvcc_version, f.runtime.str()) <= 0)
    return std::nullopt;
  const std::string runtime = f.runtime.str();
  return VersionProblem{"built with nvcc " + f.nvcc_version + " but the loaded CUDA runtime is " + runtime,
                        "load the libcudart of the toolkit archbench was built with (or rebuild with nvcc " + runtime +
                            ")",
                        Outcome::Warn};
}

// Another major version than the headers fails; an older one of the same major may lack what they declare.
std::optional<VersionProblem> library_against_headers(const std::string& lib, const std::string& loaded,
                                                      const std::string& headers) {
  if (loaded.empty() || headers.empty() || headers == "not found") return std::nullopt;
  const auto l = split_version(loaded), h = split_version(headers);
  if (l.empty() || h.empty()) return std::nullopt;
  if (l[0] != h[0]) {
    return VersionProblem{lib + " " + loaded + " is loaded, but archbench was compiled against " + lib + " " + headers,
                          "load " + lib + " " + h[0] + ".x", Outcome::Fail};
  }
  if (compare_versions(loaded, headers) < 0) {
    return VersionProblem{
        lib + " " + loaded + " is older than the " + headers + " headers archbench was compiled against",
        "load " + lib + " " + headers + " or newer", Outcome::Warn};
  }
  return std::nullopt;
}

// A library built for another CUDA major than the loaded runtime.
std::optional<VersionProblem> library_against_runtime(const std::string& lib, int built_for,
                                                      arch::CudaVersion runtime) {
  if (built_for <= 0 || !runtime.known() || built_for / 1000 == runtime.major()) return std::nullopt;
  return VersionProblem{
      lib + " was built for CUDA " + cuda_version_text(built_for) + " but the loaded CUDA runtime is " + runtime.str(),
      "install the " + lib + " build for CUDA " + std::to_string(runtime.major()), Outcome::Fail};
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
  const auto pa = split_version(a), pb = split_version(b);
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
  if (split_version(c.version).size() < 2) {
    // "libcudart.so.13" or an unversioned file: the SONAME may say more, never less.
    if (auto soname = binary::read_soname(c.real_path)) {
      if (auto n = cuda_library_name(*soname);
          n && split_version(n->version).size() > split_version(c.version).size()) {
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

void check_loaded_libraries(const RuntimeFacts& f, Checklist& out) {
  Finding loaded(Layer::Runtime, "loaded-libraries", Outcome::Pass, {});
  std::vector<std::string> names;
  for (const auto& c : f.mapped) {
    loaded.details.push_back("loaded: " + describe(c));
    names.push_back(c.family + " " + (c.version.empty() ? "?" : c.version));
  }
  for (const auto& c : f.reachable) loaded.details.push_back("reachable, not loaded: " + describe(c) + " via " + c.via);
  loaded.summary = f.mapped.empty() ? "no CUDA library is mapped into this process"
                                    : "mapped into this process: " + join(names, ", ");
  if (f.runtime.known()) loaded.details.push_back("cudaRuntimeGetVersion: " + f.runtime.str());
  loaded.details.push_back("cudaDriverGetVersion: " + (f.driver.known() ? f.driver.str() : std::string("no driver")));
  out.add(std::move(loaded));
}

void check_duplicate_libraries(const RuntimeFacts& f, Checklist& out) {
  for (const auto& [family, copies] : loaded_by_family(f)) {
    if (copies.size() < 2) continue;
    Finding d(Layer::Runtime, "duplicate:" + family, Outcome::Fail,
              std::to_string(copies.size()) + " copies of " + family + " are loaded in this process",
              "two builds of the same CUDA library in one process: each keeps its own state and symbols "
              "resolve to whichever loaded first (mixed CUDA libraries)",
              "make every component use the same copy: remove the extra directory from LD_LIBRARY_PATH, and "
              "load versioned sonames",
              {MixedCudaLibraries});
    for (const auto* c : copies) d.details.push_back(describe(*c));
    out.add(std::move(d));
  }
}

void check_stub_libcuda(const RuntimeFacts& f, Checklist& out) {
  // The stub is fine to link against, never to load. Either way the fix takes its directory
  // off LD_LIBRARY_PATH.
  auto add = [&](Outcome outcome, std::string summary, const char* cause, const LibraryCopy& c,
                 const std::string& path, const char* so_that) {
    out.add(Finding(Layer::Runtime, "stub-libcuda", outcome, std::move(summary), cause,
                    "remove " + fs::path(path).parent_path().string() + " from LD_LIBRARY_PATH" + so_that,
                    {MixedCudaLibraries})
                .with_details({describe(c)}));
  };
  for (const auto& c : f.mapped) {
    if (c.family != "libcuda" || !c.stub()) continue;
    add(Outcome::Fail, "the stub libcuda is loaded: " + c.real_path,
        "the toolkit's stubs/libcuda.so only satisfies the linker; loaded at run time every CUDA call fails "
        "(cudaErrorStubLibrary, 34) or behaves as if there were no driver",
        c, c.real_path, " so the driver's libcuda.so.1 is found");
  }
  for (const auto& c : f.reachable) {
    if (c.family != "libcuda" || !c.stub()) continue;
    add(Outcome::Warn, "a stub libcuda is reachable through " + c.via + ": " + c.path,
        "a program that opens libcuda.so (not libcuda.so.1) may load the stub instead of the driver, and then "
        "every CUDA call fails",
        c, c.path, " (stubs are for linking only)");
  }
}

void check_other_copies(const RuntimeFacts& f, Checklist& out) {
  auto loaded_copies = loaded_by_family(f);
  std::map<std::string, std::vector<const LibraryCopy*>> reachable_by_family;
  for (const auto& c : f.reachable) {
    if (!c.stub()) reachable_by_family[c.family].push_back(&c);  // stubs are stub-libcuda's
  }
  for (const auto& [family, copies] : reachable_by_family) {
    const auto& loaded = loaded_copies[family];
    const auto conflicting = conflicting_copies(copies, loaded);
    if (conflicting.empty()) continue;
    std::vector<std::string> where;
    for (const auto* c : conflicting) where.push_back((c->version.empty() ? "?" : c->version) + " via " + c->via);
    Finding w(Layer::Runtime, "other-copies:" + family, Outcome::Warn,
              loaded.empty() ? "different versions of " + family + " are reachable: " + join(where, "; ")
                             : "another " + family + " is reachable besides the loaded " + loaded.front()->version +
                                   ": " + join(where, "; "),
              "a library, plugin or framework that asks for " + family +
                  " by another soname (e.g. one built for another CUDA major) loads this copy next to the one this "
                  "process uses: two CUDA stacks in one process, or a cuBLAS/cuDNN paired with the wrong runtime",
              other_copies_fix(conflicting), {MixedCudaLibraries});
    for (const auto* c : loaded) w.details.push_back("loaded: " + describe(*c));
    for (const auto* c : conflicting) w.details.push_back("reachable: " + describe(*c) + " via " + c->via);
    out.add(std::move(w));
  }
}

void check_loader_cache(const RuntimeFacts& f, Checklist& out) {
  if (f.loader_cache_read) return;
  out.add(Finding(Layer::Runtime, "loader-cache", Outcome::Skip,
                  f.loader_cache_note.empty() ? "the loader cache was not read" : f.loader_cache_note));
}

void check_library_versions(const RuntimeFacts& f, Checklist& out) {
  std::vector<VersionProblem> problems;
  for (const auto& p : {runtime_older_than_nvcc(f),
                        library_against_headers("cuBLAS", f.cublas_version, f.cublas_headers),
                        library_against_headers("cuDNN", f.cudnn_version, f.cudnn_headers),
                        library_against_runtime("cuBLAS", f.cublas_cudart, f.runtime),
                        library_against_runtime("cuDNN", f.cudnn_cudart, f.runtime)}) {
    if (p) problems.push_back(*p);
  }
  const std::string runtime = f.runtime.known() ? f.runtime.str() : "unknown";
  Finding v(Layer::Runtime, "library-versions", Outcome::Pass, {});
  v.details = {"CUDA runtime " + runtime + " (nvcc " + f.nvcc_version + " at build time)",
               "cuBLAS " + (f.cublas_version.empty() ? std::string("unknown") : f.cublas_version) + " (headers " +
                   f.cublas_headers + ", built for CUDA " + cuda_version_text(f.cublas_cudart) + ")",
               "cuDNN " + (f.cudnn_version.empty() ? std::string("unknown") : f.cudnn_version) + " (headers " +
                   f.cudnn_headers + ", built for CUDA " + cuda_version_text(f.cudnn_cudart) + ")"};
  if (problems.empty()) {
    v.summary = "CUDA runtime " + runtime + ", cuBLAS " + f.cublas_version + ", cuDNN " + f.cudnn_version +
                ": consistent with each other and with this build";
    out.add(std::move(v));
    return;
  }
  std::vector<std::string> what, fixes;
  for (const auto& p : problems) {
    what.push_back(p.problem);
    fixes.push_back(p.fix);
    if (p.outcome == Outcome::Fail || v.outcome == Outcome::Pass) v.outcome = p.outcome;  // FAIL outranks WARN
  }
  v.summary = what.front() + (what.size() > 1 ? " (and " + std::to_string(what.size() - 1) + " more)" : "");
  v.cause = join(what, "; ") + ": mismatched CUDA libraries";
  v.fix = join(fixes, "; ");
  v.field_causes = {MixedCudaLibraries};
  out.add(std::move(v));
}

void check_jit_switches(const RuntimeFacts& f, Checklist& out) {
  for (const JitSwitch s : kJitSwitches) {
    // Only the spelling the driver honours is reported (harness/device/environment.hpp).
    if (const auto setting = jit_switch(f.env, s); setting && setting->on)
      out.add(variable_is_set(setting->name, setting->value, jit_switch_effect(s)));
  }
}

void check_behaviour_variables(const RuntimeFacts& f, Checklist& out) {
  for (const auto& rule : env_rules()) {
    for (const auto name : rule.names) {
      const auto value = env_value(f, std::string(name));
      if (value && (!rule.flag || flag_set(*value))) out.add(variable_is_set(std::string(name), *value, rule.what));
    }
  }
}

void check_module_loading(const RuntimeFacts& f, Checklist& out) {
  auto check_value = [&](const char* name, std::initializer_list<std::string_view> valid, const char* meaning) {
    const auto value = env_value(f, name);
    if (!value || std::ranges::find(valid, std::string_view(*value)) != valid.end()) return;
    out.add(Finding(Layer::Runtime, std::string("env:") + name, Outcome::Warn,
                    std::string(name) + "=" + *value + " is not a value CUDA knows",
                    std::string("CUDA reads ") + name + " as one of " +
                        join(std::vector<std::string>(valid.begin(), valid.end()), ", ") + " (" + meaning +
                        "); anything else falls back to the default",
                    std::string("set ") + name + " to one of those values, or unset it", {LazyLoadingDefersFailure}));
  };
  check_value("CUDA_MODULE_LOADING", {"LAZY", "EAGER", "DEFAULT"}, "lazy loading is the default since CUDA 12.2");
  check_value("CUDA_MODULE_DATA_LOADING", {"LAZY", "EAGER", "DEFAULT"}, "inherits CUDA_MODULE_LOADING");
}

void check_cache_path(const RuntimeFacts& f, Checklist& out) {
  const auto path = env_value(f, "CUDA_CACHE_PATH");
  // With the cache disabled nothing is written there.
  if (!path || flag_set(env_value(f, "CUDA_CACHE_DISABLE").value_or("")) || f.cuda_cache_path_writable) return;
  out.add(Finding(Layer::Runtime, "env:CUDA_CACHE_PATH", Outcome::Warn,
                  "CUDA_CACHE_PATH=" + *path + " cannot be written by this user",
                  "the driver cannot store JIT-compiled PTX there, so every process start compiles it again",
                  "point CUDA_CACHE_PATH at a writable directory (default ~/.nv/ComputeCache), or unset it",
                  {PtxJitReliance, LazyLoadingDefersFailure}));
}

void check_ld_preload(const RuntimeFacts& f, Checklist& out) {
  const auto preload = env_value(f, "LD_PRELOAD");
  if (!preload) return;
  for (const auto& entry : split(*preload, ':')) {
    for (const auto& word : split(entry, ' ')) {
      if (!cuda_library_name(fs::path(word).filename().string())) continue;
      out.add(Finding(Layer::Runtime, "env:LD_PRELOAD", Outcome::Warn,
                      "LD_PRELOAD loads " + word + " into every process",
                      "a preloaded CUDA library wins over the one each program was built and packaged with "
                      "(mixed CUDA libraries in one process)",
                      "remove it from LD_PRELOAD", {MixedCudaLibraries}));
    }
  }
}

void check_environment_summary(const RuntimeFacts& f, Checklist& out) {
  std::vector<std::string> seen;
  for (const auto& [k, v] : f.env) {
    if (k.starts_with("CUDA_") || k.starts_with("NVIDIA_") || k == "LD_LIBRARY_PATH" || k == "LD_PRELOAD" ||
        k == "TORCH_CUDA_ARCH_LIST" || k == "CUDAARCHS" || k.starts_with("COMPUTE_PROFILE") || k == "OPENCL_PROFILE" ||
        k == "NSIGHT_CUDA_DEBUGGER") {
      seen.push_back(k + "=" + v);
    }
  }
  out.add(Finding(Layer::Runtime, "environment", Outcome::Pass,
                  seen.empty() ? "no CUDA_* / NVIDIA_* / LD_* variables are set"
                               : std::to_string(seen.size()) + " CUDA-related variable(s) set (listed)")
              .with_details(seen));
}

void check_runtime(const RuntimeFacts& f, Checklist& out) {
  check_loaded_libraries(f, out);
  check_duplicate_libraries(f, out);
  check_stub_libcuda(f, out);
  check_other_copies(f, out);
  check_loader_cache(f, out);
  check_library_versions(f, out);
  check_jit_switches(f, out);
  check_behaviour_variables(f, out);
  check_module_loading(f, out);
  check_cache_path(f, out);
  check_ld_preload(f, out);
  check_environment_summary(f, out);
}

}  // namespace archbench::doctor
