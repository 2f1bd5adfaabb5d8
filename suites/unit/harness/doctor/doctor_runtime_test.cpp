// The doctor's runtime layer on plain data: library names and versions, /proc/self/maps and
// `ldconfig -p` text, copies reachable through LD_LIBRARY_PATH, stub libcuda, and the variables
// that change CUDA's behaviour (no GPU needed).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/binary/soname.hpp"
#include "harness/doctor/runtime_layer.hpp"
#include "suites/unit/harness/doctor/checklist_queries.hpp"

namespace archbench::doctor {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "doctor_test.XXXXXX").string();
    EXPECT_NE(mkdtemp(tmpl.data()), nullptr);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] fs::path operator/(const std::string& name) const { return path_ / name; }
  [[nodiscard]] std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

void touch(const fs::path& p) { std::ofstream(p) << "not an ELF file"; }

RuntimeFacts consistent_facts() {
  RuntimeFacts f;
  f.runtime = {13000};
  f.driver = {13000};
  f.cublas_version = "13.1.0";
  f.cublas_cudart = 13000;
  f.cudnn_version = "9.19.0";
  f.cudnn_cudart = 13010;
  f.nvcc_version = "13.0";
  f.cublas_headers = "13.1.0";
  f.cudnn_headers = "9.19.0";
  f.loader_cache_read = true;
  f.mapped = {{"libcudart", "/usr/local/cuda/lib64/libcudart.so.13", "/usr/local/cuda-13.0/lib/libcudart.so.13", "13.0",
               "mapped"},
              {"libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04",
               "/usr/lib/x86_64-linux-gnu/libcuda.so.580.159.04", "580.159.04", "mapped"}};
  return f;
}

TEST(DoctorLibraryName, SplitsFamilyAndVersion) {
  struct Case {
    const char* file;
    const char* family;
    const char* version;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"libcudart.so.13.0.96", "libcudart", "13.0.96"},
           {"libcuda.so.580.159.04", "libcuda", "580.159.04"},
           {"libcudart-9335f6a2.so.12", "libcudart", "12"},  // a wheel's vendored copy
           {"libcublas.so", "libcublas", ""},
           {"libcudnn_engines_precompiled.so.9", "libcudnn_engines_precompiled", "9"},
           {"libcudnn.so.9.bak", "libcudnn", "9"}}) {
    const auto n = cuda_library_name(c.file);
    ASSERT_TRUE(n) << c.file;
    EXPECT_EQ(n->family, c.family) << c.file;
    EXPECT_EQ(n->version, c.version) << c.file;
  }
  EXPECT_TRUE(cuda_library_name("libnvidia-ml.so.1"));
  EXPECT_FALSE(cuda_library_name("libc.so.6"));
  EXPECT_FALSE(cuda_library_name("libcudart_static.a"));
  EXPECT_FALSE(cuda_library_name("libcudart.sox"));
  EXPECT_FALSE(cuda_library_name("libcublasfoo.so.1"));  // not libcublas: families match exactly
}

TEST(DoctorLibraryName, VersionsConflictOnlyWhereBothSaySomething) {
  EXPECT_TRUE(versions_conflict("12", "13.0"));
  EXPECT_TRUE(versions_conflict("12.4.127", "12.8"));
  EXPECT_FALSE(versions_conflict("13", "13.0.96"));
  EXPECT_FALSE(versions_conflict("13.0", "13.00"));  // compared as numbers
  EXPECT_FALSE(versions_conflict("", "13.0"));       // unknown is not a conflict
}

TEST(DoctorMaps, ListsMappedFilesOnce) {
  const std::string maps =
      "55e2c8cb4000-55e2c8cb6000 r--p 00000000 fe:00 247134                     /usr/bin/archbench\n"
      "7f0000000000-7f0000001000 r--p 00000000 fe:00 1                          "
      "/usr/local/cuda-13.0/lib/libcudart.so.13\n"
      "7f0000001000-7f0000002000 r-xp 00001000 fe:00 1                          "
      "/usr/local/cuda-13.0/lib/libcudart.so.13\n"
      "7f0000003000-7f0000004000 rw-p 00000000 00:00 0                          [heap]\n"
      "7f0000004000-7f0000005000 rw-p 00000000 00:00 0 \n"
      "7f0000005000-7f0000006000 r--p 00000000 fe:00 2                          /opt/my libs/libcuda.so.580.1 "
      "(deleted)\n";
  const auto files = mapped_files(maps);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], "/usr/bin/archbench");
  EXPECT_EQ(files[1], "/usr/local/cuda-13.0/lib/libcudart.so.13");
  EXPECT_EQ(files[2], "/opt/my libs/libcuda.so.580.1");
}

TEST(DoctorMaps, ThisProcessMapsItsCudaRuntime) {
  std::ifstream in("/proc/self/maps");
  std::stringstream text;
  text << in.rdbuf();
  std::string cudart;
  for (const auto& f : mapped_files(text.str())) {
    const auto n = cuda_library_name(fs::path(f).filename().string());
    if (n && n->family == "libcudart") cudart = f;
  }
  ASSERT_FALSE(cudart.empty()) << "the unit tests link the shared CUDA runtime";
  // The SONAME read from the file agrees with the runtime's major version.
  const auto soname = binary::read_soname(cudart);
  ASSERT_TRUE(soname) << cudart;
  EXPECT_EQ(*soname, "libcudart.so." + std::to_string(CUDART_VERSION / 1000));
  EXPECT_FALSE(binary::read_soname("/proc/self/maps"));  // not an ELF file
  EXPECT_FALSE(binary::read_soname("/nonexistent/libcudart.so"));
}

TEST(DoctorLoaderCache, ParsesLdconfigOutput) {
  const std::string text =
      "1210 libs found in cache `/etc/ld.so.cache'\n"
      "\tlibcudart.so.13 (libc6,x86-64) => /usr/local/cuda-13.0/lib/libcudart.so.13\n"
      "\tlibcudart.so.12 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudart.so.12\n"
      "\tlibcuda.so.1 (libc6) => /usr/lib32/libcuda.so.1\n"
      "\tgarbage line\n"
      "Cache generated by: ldconfig (GNU libc) stable release version 2.36\n";
  const auto entries = parse_loader_cache(text);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "libcudart.so.13");
  EXPECT_EQ(entries[0].flags, "libc6,x86-64");
  EXPECT_EQ(entries[0].path, "/usr/local/cuda-13.0/lib/libcudart.so.13");
  EXPECT_EQ(entries[2].flags, "libc6");
}

TEST(DoctorReachable, FindsCopiesThroughLdLibraryPathAndTheCache) {
  TempDir a, b;
  touch(a / "libcudart.so.12.4.127");
  fs::create_symlink(a / "libcudart.so.12.4.127", a / "libcudart.so.12");  // same file: listed once
  touch(a / "libcufoo.so.1");                                              // not followed
  touch(b / "libcublas.so.12.8.4.1");
  const std::vector<LoaderCacheEntry> cache{
      {"libcudart.so.12", "libc6,x86-64", (a / "libcudart.so.12").string()},
      {"libcublas.so.12", "libc6,x86-64", (b / "libcublas.so.12.8.4.1").string()}};
  const auto copies =
      find_reachable_copies({"libcudart", "libcublas"}, a.str() + "::" + b.str() + ":/nonexistent", cache);
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0].family, "libcudart");
  EXPECT_EQ(copies[0].version, "12.4.127");
  EXPECT_EQ(copies[0].real_path, fs::canonical(a / "libcudart.so.12.4.127").string());
  EXPECT_NE(copies[0].via.find("LD_LIBRARY_PATH"), std::string::npos);
  EXPECT_EQ(copies[1].family, "libcublas");
  EXPECT_EQ(copies[1].version, "12.8.4.1");
}

TEST(DoctorRuntime, ASecondCudaRuntimeReachableIsAWarningWithTheDirectoryToRemove) {
  TempDir dir;
  RuntimeFacts f = consistent_facts();
  LibraryCopy other{"libcudart", (dir / "libcudart.so.12").string(), (dir / "libcudart.so.12.4.127").string(),
                    "12.4.127", "LD_LIBRARY_PATH (" + dir.str() + ")"};
  LibraryCopy same{"libcudart", "/opt/cuda/lib64/libcudart.so.13", "/opt/cuda/lib64/libcudart.so.13.0.96", "13.0.96",
                   "loader cache"};
  f.reachable = {other, same};
  Checklist c = checked(check_runtime, f);
  const Finding* w = only(c, "other-copies:libcudart");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->outcome, Outcome::Warn);
  EXPECT_NE(w->summary.find("12.4.127"), std::string::npos) << w->summary;
  EXPECT_EQ(w->summary.find("13.0.96"), std::string::npos) << "the same version is no conflict: " << w->summary;
  EXPECT_NE(w->fix.find("remove " + dir.str() + " from LD_LIBRARY_PATH"), std::string::npos) << w->fix;
  EXPECT_EQ(w->field_causes, (FieldCauses{FieldCause::MixedCudaLibraries}));
  EXPECT_EQ(diagnose(c), Diagnosis::Healthy);  // a warning does not fail the run

  f.reachable = {same};
  Checklist clean = checked(check_runtime, f);
  EXPECT_TRUE(clean.all_of("other-copies:libcudart").empty());
  EXPECT_EQ(clean.count(Outcome::Warn), 0u);
  EXPECT_EQ(clean.count(Outcome::Fail), 0u);
}

TEST(DoctorRuntime, StubLibcudaAndDuplicateLibraries) {
  RuntimeFacts f = consistent_facts();
  f.mapped[1] = {"libcuda", "/usr/local/cuda/lib64/stubs/libcuda.so", "/usr/local/cuda-13.0/lib64/stubs/libcuda.so", "",
                 "mapped"};
  f.mapped.push_back({"libcudart", "/opt/other/libcudart.so.13", "/opt/other/libcudart.so.13", "13.0", "mapped"});
  Checklist c = checked(check_runtime, f);
  const Finding* stub = only(c, "stub-libcuda");
  ASSERT_NE(stub, nullptr);
  EXPECT_EQ(stub->outcome, Outcome::Fail);
  EXPECT_NE(stub->fix.find("stubs"), std::string::npos) << stub->fix;
  const Finding* dup = only(c, "duplicate:libcudart");
  ASSERT_NE(dup, nullptr);
  EXPECT_EQ(dup->outcome, Outcome::Fail);
  EXPECT_EQ(diagnose(c), Diagnosis::Failed);

  RuntimeFacts g = consistent_facts();
  g.reachable = {{"libcuda", "/usr/local/cuda/lib64/stubs/libcuda.so", "/usr/local/cuda/lib64/stubs/libcuda.so", "1",
                  "LD_LIBRARY_PATH (/usr/local/cuda/lib64/stubs)"}};
  Checklist w = checked(check_runtime, g);
  const Finding* reachable = only(w, "stub-libcuda");
  ASSERT_NE(reachable, nullptr);
  EXPECT_EQ(reachable->outcome, Outcome::Warn);
  EXPECT_TRUE(w.all_of("other-copies:libcuda").empty()) << "a stub is reported as a stub, not as another driver";
}

TEST(DoctorRuntime, LibraryVersionMismatches) {
  RuntimeFacts f = consistent_facts();
  f.cublas_cudart = 12080;     // a cuBLAS for CUDA 12 next to runtime 13
  f.cudnn_version = "9.10.0";  // older than the 9.19.0 headers
  Checklist c = checked(check_runtime, f);
  const Finding* v = only(c, "library-versions");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->outcome, Outcome::Fail);
  EXPECT_NE(v->cause.find("cuBLAS was built for CUDA 12.8"), std::string::npos) << v->cause;
  EXPECT_NE(v->cause.find("cuDNN 9.10.0 is older than the 9.19.0 headers"), std::string::npos) << v->cause;

  Checklist ok;
  check_runtime(consistent_facts(), ok);
  EXPECT_EQ(only(ok, "library-versions")->outcome, Outcome::Pass);
  f = consistent_facts();
  f.loader_cache_read = false;
  f.loader_cache_note = "no ldconfig in /sbin";
  Checklist skip = checked(check_runtime, f);
  EXPECT_EQ(only(skip, "loader-cache")->outcome, Outcome::Skip);
}

TEST(DoctorRuntime, JitVariablesWarnWithTheirFix) {
  RuntimeFacts f = consistent_facts();
  f.env = {{"CUDA_DISABLE_PTX_JIT", "1"},
           {"CUDA_LAUNCH_BLOCKING", "1"},
           {"CUDA_INJECTION64_PATH", "/opt/tool.so"},
           {"CUDA_MODULE_LOADING", "EAGERLY"},
           {"LD_PRELOAD", "/usr/lib/libcudart.so.12"}};
  Checklist c = checked(check_runtime, f);
  const Finding* jit = only(c, "env:CUDA_DISABLE_PTX_JIT");
  ASSERT_NE(jit, nullptr);
  EXPECT_EQ(jit->outcome, Outcome::Warn);
  EXPECT_NE(jit->cause.find("223"), std::string::npos) << jit->cause;
  EXPECT_NE(jit->fix.find("unset it"), std::string::npos) << jit->fix;
  EXPECT_NE(jit->fix.find("--jit-passes"), std::string::npos) << jit->fix;
  EXPECT_EQ(only(c, "env:CUDA_LAUNCH_BLOCKING")->outcome, Outcome::Warn);
  EXPECT_EQ(only(c, "env:CUDA_INJECTION64_PATH")->outcome, Outcome::Warn);
  EXPECT_EQ(only(c, "env:CUDA_MODULE_LOADING")->outcome, Outcome::Warn);
  EXPECT_EQ(only(c, "env:LD_PRELOAD")->outcome, Outcome::Warn);
  EXPECT_EQ(diagnose(c), Diagnosis::Healthy);

  // The PTX_ spelling wins over the alias; 0 means off.
  f.env = {{"CUDA_DISABLE_PTX_JIT", "0"}, {"CUDA_DISABLE_JIT", "1"}, {"CUDA_MODULE_LOADING", "EAGER"}};
  Checklist off = checked(check_runtime, f);
  EXPECT_TRUE(off.all_of("env:CUDA_DISABLE_PTX_JIT").empty());
  EXPECT_TRUE(off.all_of("env:CUDA_DISABLE_JIT").empty());
  EXPECT_TRUE(off.all_of("env:CUDA_MODULE_LOADING").empty());
  f.env = {{"CUDA_FORCE_JIT", "1"}};
  Checklist alias = checked(check_runtime, f);
  EXPECT_EQ(only(alias, "env:CUDA_FORCE_JIT")->outcome, Outcome::Warn);
}

TEST(DoctorRuntime, GathersThisProcess) {
  // Without a driver: the runtime is mapped and reports its version; the API versions are read.
  const RuntimeFacts f = gather_runtime_facts({CUDART_VERSION}, {});
  bool cudart = false;
  for (const auto& c : f.mapped) cudart |= c.family == "libcudart";
  EXPECT_TRUE(cudart);
  EXPECT_FALSE(f.cublas_version.empty());
  EXPECT_FALSE(f.cudnn_version.empty());
  EXPECT_FALSE(f.env.empty());
  Checklist c = checked(check_runtime, f);
  ASSERT_NE(c.find("loaded-libraries"), nullptr);
  EXPECT_NE(c.find("loaded-libraries")->summary.find("libcudart"), std::string::npos);
}

// The check functions one by one, on fake facts: each adds only its own findings.

std::vector<std::string> ids(const Checklist& c) {
  std::vector<std::string> out;
  for (const auto& f : c.findings()) out.push_back(f.check);
  return out;
}

bool contains(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& l : lines) {
    if (l.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(DoctorRuntimeChecks, LoadedLibrariesListsWhatIsMappedAndWhatIsOnlyReachable) {
  RuntimeFacts f = consistent_facts();
  f.reachable = {{"libcublas", "/opt/cuda-12/lib/libcublas.so.12", "/opt/cuda-12/lib/libcublas.so.12.8.4.1",
                  "12.8.4.1", "loader cache"}};
  Checklist c = judged(runtime_checks(), Layer::Runtime, "loaded-libraries", f);
  ASSERT_EQ(ids(c), (std::vector<std::string>{"loaded-libraries"}));
  const Finding& l = c.findings()[0];
  EXPECT_EQ(l.outcome, Outcome::Pass);
  EXPECT_EQ(l.summary, "mapped into this process: libcudart 13.0, libcuda 580.159.04");
  EXPECT_TRUE(contains(l.details, "loaded: libcudart 13.0  /usr/local/cuda-13.0/lib/libcudart.so.13 (as "
                                  "/usr/local/cuda/lib64/libcudart.so.13)"));
  EXPECT_TRUE(contains(l.details, "reachable, not loaded: libcublas 12.8.4.1") &&
              contains(l.details, "via loader cache"));
  EXPECT_TRUE(contains(l.details, "cudaRuntimeGetVersion: 13.0"));
  EXPECT_TRUE(contains(l.details, "cudaDriverGetVersion: 13.0"));

  RuntimeFacts none;
  Checklist empty = judged(runtime_checks(), Layer::Runtime, "loaded-libraries", none);
  EXPECT_EQ(empty.findings()[0].summary, "no CUDA library is mapped into this process");
  EXPECT_EQ(empty.findings()[0].details, (std::vector<std::string>{"cudaDriverGetVersion: no driver"}));
}

TEST(DoctorRuntimeChecks, OneFileMappedUnderTwoNamesIsNoDuplicate) {
  RuntimeFacts f = consistent_facts();
  LibraryCopy alias = f.mapped[0];
  alias.path = "/usr/local/cuda-13.0/lib/libcudart.so.13.0.96";  // same real path
  f.mapped.push_back(alias);
  Checklist c = judged(runtime_checks(), Layer::Runtime, "duplicate", f);
  EXPECT_TRUE(c.findings().empty());
}

TEST(DoctorRuntimeChecks, OtherCopiesOfAFamilyNotLoadedAndInTheLoaderCache) {
  RuntimeFacts f = consistent_facts();
  f.reachable = {
      {"libnccl", "/opt/a/libnccl.so.2", "/opt/a/libnccl.so.2.21.5", "2.21.5", "LD_LIBRARY_PATH (/opt/a)"},
      {"libnccl", "/usr/lib/libnccl.so.2", "/usr/lib/libnccl.so.2.27.3", "2.27.3", "loader cache"},
      {"libcublas", "/opt/b/libcublas.so.13", "/opt/b/libcublas.so.13", "13", "LD_LIBRARY_PATH (/opt/b)"}};
  Checklist c = judged(runtime_checks(), Layer::Runtime, "other-copies", f);
  ASSERT_EQ(ids(c), (std::vector<std::string>{"other-copies:libnccl"}))
      << "one version of a family that is not loaded is no conflict";
  const Finding& w = c.findings()[0];
  EXPECT_EQ(w.outcome, Outcome::Warn);
  EXPECT_EQ(w.summary,
            "different versions of libnccl are reachable: 2.21.5 via LD_LIBRARY_PATH (/opt/a); "
            "2.27.3 via loader cache");
  EXPECT_EQ(w.fix.find("remove /opt/a from LD_LIBRARY_PATH"), 0u) << w.fix;
  EXPECT_NE(w.fix.find("remove its directory from /etc/ld.so.conf.d and run ldconfig"), std::string::npos) << w.fix;
  EXPECT_TRUE(w.fix.ends_with("; load versioned sonames")) << w.fix;
}

TEST(DoctorRuntimeChecks, LoaderCacheSkipsOnlyWhenNotRead) {
  RuntimeFacts f = consistent_facts();
  Checklist read = judged(runtime_checks(), Layer::Runtime, "loader-cache", f);
  EXPECT_TRUE(read.findings().empty());
  f.loader_cache_read = false;
  Checklist unread = judged(runtime_checks(), Layer::Runtime, "loader-cache", f);
  ASSERT_EQ(ids(unread), (std::vector<std::string>{"loader-cache"}));
  EXPECT_EQ(unread.findings()[0].outcome, Outcome::Skip);
  EXPECT_EQ(unread.findings()[0].summary, "the loader cache was not read");
}

TEST(DoctorRuntimeChecks, LibraryVersionsWarnsForAnOlderRuntimeAndFailsForAnotherMajor) {
  RuntimeFacts f = consistent_facts();
  f.nvcc_version = "13.1";  // built with a newer toolkit than the runtime loaded
  Checklist warn = judged(runtime_checks(), Layer::Runtime, "library-versions", f);
  ASSERT_EQ(ids(warn), (std::vector<std::string>{"library-versions"}));
  EXPECT_EQ(warn.findings()[0].outcome, Outcome::Warn);
  EXPECT_EQ(warn.findings()[0].summary, "built with nvcc 13.1 but the loaded CUDA runtime is 13.0");
  EXPECT_EQ(warn.findings()[0].field_causes, (FieldCauses{FieldCause::MixedCudaLibraries}));

  f.cublas_version = "12.8.4";  // another major than the 13.1.0 headers: FAIL outranks the WARN
  Checklist fail = judged(runtime_checks(), Layer::Runtime, "library-versions", f);
  const Finding& v = fail.findings()[0];
  EXPECT_EQ(v.outcome, Outcome::Fail);
  EXPECT_EQ(v.summary, "built with nvcc 13.1 but the loaded CUDA runtime is 13.0 (and 1 more)");
  EXPECT_NE(v.cause.find("cuBLAS 12.8.4 is loaded, but archbench was compiled against cuBLAS 13.1.0"),
            std::string::npos)
      << v.cause;
  EXPECT_NE(v.fix.find("load cuBLAS 13.x"), std::string::npos) << v.fix;
}

TEST(DoctorRuntimeChecks, JitSwitchesReportTheSpellingTheDriverHonours) {
  RuntimeFacts f;
  f.env = {{"CUDA_DISABLE_JIT", "1"}, {"CUDA_FORCE_PTX_JIT", "1"}, {"CUDA_FORCE_JIT", "0"}};
  Checklist both = judged(runtime_checks(), Layer::Runtime, "env", f);
  EXPECT_EQ(ids(both), (std::vector<std::string>{"env:CUDA_DISABLE_JIT", "env:CUDA_FORCE_PTX_JIT"}));
  EXPECT_EQ(both.findings()[0].summary, "CUDA_DISABLE_JIT=1 is set");
  EXPECT_NE(both.findings()[1].cause.find("(209)"), std::string::npos) << both.findings()[1].cause;

  f.env = {{"CUDA_FORCE_PTX_JIT", ""}, {"CUDA_FORCE_JIT", "1"}, {"CUDA_DISABLE_PTX_JIT", "0"}};
  Checklist off = judged(runtime_checks(), Layer::Runtime, "env", f);
  EXPECT_TRUE(off.findings().empty()) << "a PTX_ spelling set to empty or 0 turns its switch off";
}

TEST(DoctorRuntimeChecks, BehaviourVariablesCountWhenOnOrForToolHooksWhenSet) {
  RuntimeFacts f;
  f.env = {{"CUDA_CACHE_DISABLE", "1"}, {"CUDA_LAUNCH_BLOCKING", "0"}, {"CUDA_PROFILE", "0"}, {"HOME", "/root"}};
  Checklist c = judged(runtime_checks(), Layer::Runtime, "env", f);
  EXPECT_EQ(ids(c), (std::vector<std::string>{"env:CUDA_CACHE_DISABLE", "env:CUDA_PROFILE"}));
  EXPECT_EQ(c.findings()[0].field_causes,
            (FieldCauses{FieldCause::PtxJitReliance, FieldCause::LazyLoadingDefersFailure}));
  EXPECT_EQ(c.findings()[1].summary, "CUDA_PROFILE=0 is set");
}

TEST(DoctorRuntimeChecks, ModuleLoadingValuesAreCaseSensitive) {
  RuntimeFacts f;
  f.env = {{"CUDA_MODULE_LOADING", "LAZY"}, {"CUDA_MODULE_DATA_LOADING", "lazy"}};
  Checklist c = judged(runtime_checks(), Layer::Runtime, "env", f);
  ASSERT_EQ(ids(c), (std::vector<std::string>{"env:CUDA_MODULE_DATA_LOADING"}));
  EXPECT_EQ(c.findings()[0].summary, "CUDA_MODULE_DATA_LOADING=lazy is not a value CUDA knows");
  EXPECT_NE(c.findings()[0].cause.find("one of LAZY, EAGER, DEFAULT (inherits CUDA_MODULE_LOADING)"),
            std::string::npos)
      << c.findings()[0].cause;
}

TEST(DoctorRuntimeChecks, CachePathWarnsWhenItCannotBeWrittenAndTheCacheIsOn) {
  RuntimeFacts f;
  f.env = {{"CUDA_CACHE_PATH", "/ro/cache"}};
  f.cuda_cache_path_writable = false;
  Checklist c = judged(runtime_checks(), Layer::Runtime, "env", f);
  ASSERT_EQ(ids(c), (std::vector<std::string>{"env:CUDA_CACHE_PATH"}));
  EXPECT_EQ(c.findings()[0].summary, "CUDA_CACHE_PATH=/ro/cache cannot be written by this user");

  f.env["CUDA_CACHE_DISABLE"] = "1";  // nothing is written there; the variable is a finding of its own
  Checklist disabled = judged(runtime_checks(), Layer::Runtime, "env", f);
  EXPECT_EQ(ids(disabled), (std::vector<std::string>{"env:CUDA_CACHE_DISABLE"}));
  f.env.erase("CUDA_CACHE_DISABLE");
  f.cuda_cache_path_writable = true;
  Checklist writable = judged(runtime_checks(), Layer::Runtime, "env", f);
  EXPECT_TRUE(writable.findings().empty());
}

TEST(DoctorRuntimeChecks, GatherJudgesWhetherTheCachePathCanBeCreated) {
  TempDir dir;
  ASSERT_EQ(setenv("CUDA_CACHE_PATH", (dir / "not/yet/there").c_str(), 1), 0);
  const RuntimeFacts f = gather_runtime_facts({CUDART_VERSION}, {});
  unsetenv("CUDA_CACHE_PATH");
  EXPECT_TRUE(f.cuda_cache_path_writable) << "its nearest existing parent is writable";
}

TEST(DoctorRuntimeChecks, LdPreloadWarnsPerCudaLibrary) {
  RuntimeFacts f;
  f.env = {{"LD_PRELOAD", "libjemalloc.so.2 /opt/cudnn/libcudnn.so.9:libcublasLt.so.13"}};
  Checklist c = judged(runtime_checks(), Layer::Runtime, "env", f);
  ASSERT_EQ(ids(c), (std::vector<std::string>{"env:LD_PRELOAD", "env:LD_PRELOAD"}));
  EXPECT_EQ(c.findings()[0].summary, "LD_PRELOAD loads /opt/cudnn/libcudnn.so.9 into every process");
  EXPECT_EQ(c.findings()[1].summary, "LD_PRELOAD loads libcublasLt.so.13 into every process");
}

TEST(DoctorRuntimeChecks, EnvironmentSummaryListsTheCudaRelatedVariables) {
  RuntimeFacts f;
  f.env = {{"HOME", "/root"}, {"TORCH_CUDA_ARCH_LIST", "9.0"}, {"CUDA_VISIBLE_DEVICES", "0"}};
  Checklist c = judged(runtime_checks(), Layer::Runtime, "environment", f);
  ASSERT_EQ(ids(c), (std::vector<std::string>{"environment"}));
  EXPECT_EQ(c.findings()[0].outcome, Outcome::Pass);
  EXPECT_EQ(c.findings()[0].summary, "2 CUDA-related variable(s) set (listed)");
  EXPECT_EQ(c.findings()[0].details, (std::vector<std::string>{"CUDA_VISIBLE_DEVICES=0", "TORCH_CUDA_ARCH_LIST=9.0"}));
  f.env = {{"HOME", "/root"}};
  Checklist none = judged(runtime_checks(), Layer::Runtime, "environment", f);
  EXPECT_EQ(none.findings()[0].summary, "no CUDA_* / NVIDIA_* / LD_* variables are set");
}

TEST(DoctorRuntimeChecks, TheLayerRunsEveryCheckInReportOrder) {
  RuntimeFacts f = consistent_facts();
  f.mapped.push_back({"libcudart", "/opt/other/libcudart.so.13", "/opt/other/libcudart.so.13", "13.0", "mapped"});
  f.reachable = {{"libcuda", "/s/stubs/libcuda.so", "/s/stubs/libcuda.so", "", "LD_LIBRARY_PATH (/s/stubs)"},
                 {"libcudart", "/o/libcudart.so.12", "/o/libcudart.so.12", "12", "LD_LIBRARY_PATH (/o)"}};
  f.loader_cache_read = false;
  f.env = {{"CUDA_FORCE_JIT", "1"},          {"CUDA_LAUNCH_BLOCKING", "1"},
           {"CUDA_MODULE_LOADING", "NOPE"},  {"CUDA_CACHE_PATH", "/ro"},
           {"LD_PRELOAD", "libcudart.so.13"}};
  f.cuda_cache_path_writable = false;
  Checklist c = checked(check_runtime, f);
  EXPECT_EQ(ids(c), (std::vector<std::string>{"loaded-libraries", "duplicate:libcudart", "stub-libcuda",
                                              "other-copies:libcudart", "loader-cache", "library-versions",
                                              "env:CUDA_FORCE_JIT", "env:CUDA_LAUNCH_BLOCKING",
                                              "env:CUDA_MODULE_LOADING", "env:CUDA_CACHE_PATH", "env:LD_PRELOAD",
                                              "environment"}));
}

}  // namespace
}  // namespace archbench::doctor
