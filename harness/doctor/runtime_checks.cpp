// The runtime layer's checks (runtime_layer.hpp): pure judges of RuntimeFacts, in the order of the
// table at the end.
#include "harness/doctor/runtime_layer.hpp"

#include "harness/doctor/check_table.hpp"

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

std::string describe(const LibraryCopy& c) {
  return c.family + " " + (c.version.empty() ? std::string("(version unknown)") : c.version) + "  " + c.real_path +
         (c.path != c.real_path ? " (as " + c.path + ")" : "");
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

Finding variable_is_set(const CheckOutput& out, const std::string& name, const std::string& value, const EnvEffect& e) {
  return out.finding_about(name, Outcome::Warn, name + "=" + value + " is set", e.effect, e.fix,
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
  const auto l = split(loaded, '.'), h = split(headers, '.');
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

void loaded_libraries(const RuntimeFacts& f, CheckOutput& out) {
  Finding loaded = out.finding(Outcome::Pass, {});
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

void duplicate_libraries(const RuntimeFacts& f, CheckOutput& out) {
  for (const auto& [family, copies] : loaded_by_family(f)) {
    if (copies.size() < 2) continue;
    Finding d = out.finding_about(family, Outcome::Fail,
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

void stub_libcuda(const RuntimeFacts& f, CheckOutput& out) {
  // The stub is fine to link against, never to load. Either way the fix takes its directory
  // off LD_LIBRARY_PATH.
  auto add = [&](Outcome outcome, std::string summary, const char* cause, const LibraryCopy& c,
                 const std::string& path, const char* so_that) {
    out.add(out.finding(outcome, std::move(summary), cause,
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

void other_copies(const RuntimeFacts& f, CheckOutput& out) {
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
    Finding w = out.finding_about(family, Outcome::Warn,
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

void loader_cache(const RuntimeFacts& f, CheckOutput& out) {
  if (f.loader_cache_read) return;
  out.add(out.finding(Outcome::Skip,
                  f.loader_cache_note.empty() ? "the loader cache was not read" : f.loader_cache_note));
}

void library_versions(const RuntimeFacts& f, CheckOutput& out) {
  std::vector<VersionProblem> problems;
  for (const auto& p : {runtime_older_than_nvcc(f),
                        library_against_headers("cuBLAS", f.cublas_version, f.cublas_headers),
                        library_against_headers("cuDNN", f.cudnn_version, f.cudnn_headers),
                        library_against_runtime("cuBLAS", f.cublas_cudart, f.runtime),
                        library_against_runtime("cuDNN", f.cudnn_cudart, f.runtime)}) {
    if (p) problems.push_back(*p);
  }
  const std::string runtime = f.runtime.known() ? f.runtime.str() : "unknown";
  Finding v = out.finding(Outcome::Pass, {});
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

void jit_switches(const RuntimeFacts& f, CheckOutput& out) {
  for (const JitSwitch s : kJitSwitches) {
    // Only the spelling the driver honours is reported (harness/device/environment.hpp).
    if (const auto setting = jit_switch(f.env, s); setting && setting->on)
      out.add(variable_is_set(out, setting->name, setting->value, jit_switch_effect(s)));
  }
}

void behaviour_variables(const RuntimeFacts& f, CheckOutput& out) {
  for (const auto& rule : env_rules()) {
    for (const auto name : rule.names) {
      const auto value = env_value(f, std::string(name));
      if (value && (!rule.flag || flag_set(*value))) out.add(variable_is_set(out, std::string(name), *value, rule.what));
    }
  }
}

void module_loading(const RuntimeFacts& f, CheckOutput& out) {
  auto check_value = [&](const char* name, std::initializer_list<std::string_view> valid, const char* meaning) {
    const auto value = env_value(f, name);
    if (!value || std::ranges::find(valid, std::string_view(*value)) != valid.end()) return;
    out.add(out.finding_about(name, Outcome::Warn,
                    std::string(name) + "=" + *value + " is not a value CUDA knows",
                    std::string("CUDA reads ") + name + " as one of " +
                        join(std::vector<std::string>(valid.begin(), valid.end()), ", ") + " (" + meaning +
                        "); anything else falls back to the default",
                    std::string("set ") + name + " to one of those values, or unset it", {LazyLoadingDefersFailure}));
  };
  check_value("CUDA_MODULE_LOADING", {"LAZY", "EAGER", "DEFAULT"}, "lazy loading is the default since CUDA 12.2");
  check_value("CUDA_MODULE_DATA_LOADING", {"LAZY", "EAGER", "DEFAULT"}, "inherits CUDA_MODULE_LOADING");
}

void cache_path(const RuntimeFacts& f, CheckOutput& out) {
  const auto path = env_value(f, "CUDA_CACHE_PATH");
  // With the cache disabled nothing is written there.
  if (!path || flag_set(env_value(f, "CUDA_CACHE_DISABLE").value_or("")) || f.cuda_cache_path_writable) return;
  out.add(out.finding_about("CUDA_CACHE_PATH", Outcome::Warn,
                  "CUDA_CACHE_PATH=" + *path + " cannot be written by this user",
                  "the driver cannot store JIT-compiled PTX there, so every process start compiles it again",
                  "point CUDA_CACHE_PATH at a writable directory (default ~/.nv/ComputeCache), or unset it",
                  {PtxJitReliance, LazyLoadingDefersFailure}));
}

void ld_preload(const RuntimeFacts& f, CheckOutput& out) {
  const auto preload = env_value(f, "LD_PRELOAD");
  if (!preload) return;
  for (const auto& entry : split(*preload, ':')) {
    for (const auto& word : split(entry, ' ')) {
      if (!cuda_library_name(fs::path(word).filename().string())) continue;
      out.add(out.finding_about("LD_PRELOAD", Outcome::Warn,
                      "LD_PRELOAD loads " + word + " into every process",
                      "a preloaded CUDA library wins over the one each program was built and packaged with "
                      "(mixed CUDA libraries in one process)",
                      "remove it from LD_PRELOAD", {MixedCudaLibraries}));
    }
  }
}

void environment_summary(const RuntimeFacts& f, CheckOutput& out) {
  std::vector<std::string> seen;
  for (const auto& [k, v] : f.env) {
    if (k.starts_with("CUDA_") || k.starts_with("NVIDIA_") || k == "LD_LIBRARY_PATH" || k == "LD_PRELOAD" ||
        k == "TORCH_CUDA_ARCH_LIST" || k == "CUDAARCHS" || k.starts_with("COMPUTE_PROFILE") || k == "OPENCL_PROFILE" ||
        k == "NSIGHT_CUDA_DEBUGGER") {
      seen.push_back(k + "=" + v);
    }
  }
  out.add(out.finding(Outcome::Pass,
                  seen.empty() ? "no CUDA_* / NVIDIA_* / LD_* variables are set"
                               : std::to_string(seen.size()) + " CUDA-related variable(s) set (listed)")
              .with_details(seen));
}

// env:<VARIABLE>: each variable that changes how CUDA loads or runs code, and its values' mistakes.
void environment_variables(const RuntimeFacts& f, CheckOutput& out) {
  jit_switches(f, out);
  behaviour_variables(f, out);
  module_loading(f, out);
  cache_path(f, out);
  ld_preload(f, out);
}

constexpr Check<RuntimeFacts> kRuntimeChecks[] = {
    {"loaded-libraries", loaded_libraries},
    {"duplicate", duplicate_libraries},   // duplicate:<library family>
    {"stub-libcuda", stub_libcuda},
    {"other-copies", other_copies},       // other-copies:<library family>
    {"loader-cache", loader_cache},
    {"library-versions", library_versions},
    {"env", environment_variables},       // env:<VARIABLE>
    {"environment", environment_summary},
};

}  // namespace

std::span<const Check<RuntimeFacts>> runtime_checks() { return kRuntimeChecks; }

void check_runtime(const RuntimeFacts& f, Checklist& out) { run_checks(runtime_checks(), Layer::Runtime, f, out); }

}  // namespace archbench::doctor
