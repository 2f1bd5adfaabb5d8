// harness/stack without files: dist-info parsing, declared CUDA variants, attribution, the runtime
// a binary pins, advice by package role, and the doctor's findings for a judged stack.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>

#include "harness/doctor/python_stack.hpp"
#include "harness/stack/declared_arch_list.hpp"
#include "harness/stack/inventory.hpp"
#include "harness/stack/judgement.hpp"
#include "harness/stack/scan_report.hpp"
#include "harness/stack/variant_family.hpp"

namespace archbench::stack {
namespace {

Package named(const std::string& name, const std::string& version) {
  Package p;
  p.name = name;
  p.version = version;
  return p;
}

TEST(DistInfo, MetadataAndRecord) {
  const auto [name, version] = parse_metadata("Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0+cu130\n\nName: body\n");
  EXPECT_EQ(name, "torch");
  EXPECT_EQ(version, "2.11.0+cu130");
  const auto files = parse_record("torch/lib/libtorch_cuda.so,sha256=x,1\n\"odd,name.so\",sha256=y,2\r\n\n");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[1], "odd,name.so");
}

TEST(DistInfo, DeclaredCudaVariants) {
  struct Case {
    const char* name;
    const char* version;
    int major;
  };
  for (const Case& c : std::initializer_list<Case>{{"torch", "2.8.0+cu128", 12},
                                                   {"nvidia-cudnn-cu13", "9.19.0", 13},
                                                   {"cupy-cuda12x", "13.0", 12},
                                                   {"jax-cuda13-plugin", "0.11.2", 13}}) {
    Package p = named(c.name, c.version);
    read_declared_cuda(p);
    EXPECT_EQ(p.declared_cuda_major, c.major) << c.name;
  }
  Package e = named("jax-cuda13-plugin", "0.11.2");
  read_declared_cuda(e);
  EXPECT_EQ(e.declared_from, "-cuda13");
  Package d = named("numpy", "2.0");
  read_declared_cuda(d);
  EXPECT_FALSE(d.declared_cuda_major.has_value());
}

std::vector<std::byte> bytes_of(std::string_view s) {
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

TEST(DeclaredArchList, FoundAsAStringOfItsOwnInHostCode) {
  using namespace std::string_literals;
  // As in libtorch_python.so's .rodata: NUL-separated strings around the list.
  const auto found = find_declared_arch_list(
      bytes_of("\x7f" "ELF junk\0sm_90 is not a list\0"s + "sm_75 sm_80 sm_90a sm_100f compute_120\0tail\0"s));
  EXPECT_EQ(found, (std::vector<std::string>{"sm_75", "sm_80", "sm_90a", "sm_100f", "compute_120"}));
  // Not a list: one target, the tail of a longer text, a bad token, a trailing space, no NUL.
  EXPECT_TRUE(find_declared_arch_list(bytes_of("\0sm_80\0"s)).empty());
  EXPECT_TRUE(find_declared_arch_list(bytes_of("\0flags sm_80 sm_90\0"s)).empty());
  EXPECT_TRUE(find_declared_arch_list(bytes_of("\0sm_80 sm_9\0sm_80 sm_1000\0sm_80 compute_90a\0"s)).empty());
  EXPECT_TRUE(find_declared_arch_list(bytes_of("\0sm_80 sm_90 \0"s)).empty());
  EXPECT_TRUE(find_declared_arch_list(bytes_of("\0sm_80 sm_90"s)).empty());
  EXPECT_TRUE(may_declare_arch_list("libtorch_python.so"));
  EXPECT_TRUE(may_declare_arch_list("torch_python.dll"));
  EXPECT_FALSE(may_declare_arch_list("libtorch_cuda.so"));
}

TEST(DeclaredArchList, ComparedWithTheImagesOfWholeListBinariesOnly) {
  Inventory inv;
  auto file_with = [&](const std::string& path, binary::BinaryKind kind, std::vector<std::string> targets) {
    DeviceCodeFile f;
    f.path = path;
    f.kind.kind = kind;
    for (const auto& t : targets) {
      binary::FatbinEntry e;
      e.is_image = true;
      e.target = *arch::parse_target_name(t);
      f.entries.push_back(e);
    }
    inv.files.push_back(f);
    return inv.files.size() - 1;
  };
  Package torch = named("torch", "2.11.0+cu130");
  torch.declared_arch_list = {"sm_80", "sm_90", "compute_90"};
  torch.declared_arch_list_from = "torch/lib/libtorch_python.so";
  torch.files = {file_with("torch/lib/libtorch_cuda.so", binary::BinaryKind::WholeList, {"sm_80", "sm_90", "compute_90"}),
                 file_with("torch/lib/libdispatch.so", binary::BinaryKind::Dispatching, {"sm_75"})};
  EXPECT_TRUE(declared_arch_list_mismatches(torch, inv).empty());
  torch.files.push_back(file_with("torch/lib/libc10_cuda.so", binary::BinaryKind::WholeList, {"sm_80", "sm_120"}));
  const auto notes = declared_arch_list_mismatches(torch, inv);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "declares sm_80 sm_90 compute_90 (torch/lib/libtorch_python.so) but torch/lib/libc10_cuda.so has "
                      "no compute_90/sm_90 image");  // its extra sm_120 is not a mismatch
  torch.declared_arch_list.clear();
  EXPECT_TRUE(declared_arch_list_mismatches(torch, inv).empty());
}

TEST(RuntimeNeed, LinkedLibrariesPinTheCudaMajor) {
  EXPECT_EQ(runtime_need({"libc.so.6", "libcudart.so.13"})->cuda_major, 13);
  EXPECT_EQ(runtime_need({"libcublasLt.so.12", "libcudnn.so.9"})->cuda_major, 12);
  EXPECT_EQ(runtime_need({"cudart64_110.dll"})->cuda_major, 11);
  EXPECT_EQ(runtime_need({"nvrtc64_120_0.dll", "KERNEL32.dll"})->cuda_major, 12);
  EXPECT_FALSE(runtime_need({"libcufft.so.12", "libcudnn.so.9"}).has_value());  // their own numbering
  // A runtime linked statically: the toolkit its cubins record; the newer of the two wins.
  const auto statically = runtime_need({"libc.so.6"}, arch::CudaVersion::from(13, 1));
  ASSERT_TRUE(statically.has_value());
  EXPECT_EQ(statically->cuda_major, 13);
  EXPECT_EQ(statically->library, "toolkit notes: CUDA 13.1");
  EXPECT_EQ(runtime_need({"libcudart.so.12"}, arch::CudaVersion::from(12, 8))->library, "libcudart.so.12");
}

// A package's files with the given paths, each an sm_80 or sm_90 whole-list binary.
Inventory package_of(const std::vector<std::pair<std::string, int>>& files) {
  Inventory inv;
  Package p = named("bitsandbytes", "0.50.2");
  for (const auto& [path, arch] : files) {
    DeviceCodeFile f;
    f.path = f.key = path;
    binary::FatbinEntry e;
    e.is_image = true;
    e.target = arch::CodeTarget{arch::ImageKind::Sass, arch, arch::Suffix::None, arch, {}};
    f.entries = {e};
    f.kind = binary::classify_binary(path, f.entries);
    p.files.push_back(inv.files.size());
    inv.files.push_back(f);
  }
  inv.packages = {p};
  return inv;
}

TEST(VariantFamily, RecognisedFromTheNamesOfOnePackagesFilesInOneDirectory) {
  const Inventory inv = package_of({{"bnb/libbitsandbytes_cuda118.so", 80}, {"bnb/libbitsandbytes_cuda130.so", 90},
                                    {"bnb/libbitsandbytes_cuda126.so", 80}, {"bnb/libcudart.so.13", 80},
                                    {"other/libbitsandbytes_cuda128.so", 80}, {"bnb/_C-cu121.so", 80}});
  const auto families = find_variant_families(inv.packages[0], inv);
  ASSERT_EQ(families.size(), 1u);  // libcudart.so.13 has no tag; a lone tagged file in a directory is no family
  EXPECT_EQ(families[0].pattern, "bnb/libbitsandbytes_cuda{}.so");
  ASSERT_EQ(families[0].variants.size(), 3u);
  EXPECT_EQ(families[0].variants[0].tag, "cuda118");  // ascending by CUDA version
  EXPECT_EQ(families[0].variants[1].cuda.str(), "12.6");
  EXPECT_EQ(families[0].variants[2].cuda.str(), "13.0");
}

TEST(VariantFamily, TheLoaderRuleChoosesTheVariant) {
  const Inventory inv = package_of({{"b/libx_cuda118.so", 80}, {"b/libx_cuda126.so", 80}, {"b/libx_cuda128.so", 90}});
  const auto family = find_variant_families(inv.packages[0], inv).at(0);
  const LoaderHint exact = loader_hint("bitsandbytes");
  EXPECT_EQ(exact.match, VariantMatch::Exact);
  EXPECT_STREQ(exact.override_variable, "BNB_CUDA_VERSION");
  EXPECT_EQ(choose_variant(family, exact, {arch::CudaVersion::from(12, 6), "torch"}).chosen, 1u);
  EXPECT_FALSE(choose_variant(family, exact, {arch::CudaVersion::from(12, 9), "torch"}).chosen.has_value());
  const LoaderHint other = loader_hint("somepackage");
  EXPECT_EQ(other.match, VariantMatch::NewestOfTheSameMajor);
  EXPECT_EQ(choose_variant(family, other, {arch::CudaVersion::from(12, 9), "torch"}).chosen, 2u);
  EXPECT_EQ(choose_variant(family, other, {arch::CudaVersion::from(12, 7), "torch"}).chosen, 1u);
  EXPECT_FALSE(choose_variant(family, other, {arch::CudaVersion::from(13, 0), "torch"}).chosen.has_value());
  // The override, when the environment sets it, comes before the framework's CUDA.
  Inventory with_torch = inv;
  with_torch.framework_cuda = CudaSource{arch::CudaVersion::from(12, 8), "torch 2.8.0+cu128"};
  EXPECT_EQ(variant_selector(exact, with_torch, "126")->from, "BNB_CUDA_VERSION=126");
  EXPECT_EQ(variant_selector(exact, with_torch, nullptr)->cuda.str(), "12.8");
  EXPECT_EQ(variant_selector(exact, with_torch, "garbage")->cuda.str(), "12.8");
}

TEST(VariantFamily, OnlyTheVariantThatLoadsDecidesThePackage) {
  Inventory inv = package_of({{"b/libbitsandbytes_cuda126.so", 80}, {"b/libbitsandbytes_cuda130.so", 90}});
  // Nothing says which loads: each device is served by the best variant.
  for (const char* device : {"8.0@580", "9.0@580"}) {
    const auto j = judge_inventory(inv, {arch::parse_device_spec(device)}, {13});
    EXPECT_EQ(j[0].packages[0].coverage, ImageOutcome::Sass) << device;
  }
  Distribution torch;
  torch.package = named("torch", "2.9.0+cu126");
  EXPECT_EQ(framework_cuda_of({torch})->cuda.str(), "12.6");
  inv.framework_cuda = framework_cuda_of({torch});
  const auto on90 = judge_inventory(inv, {arch::parse_device_spec("9.0@580")}, {13});
  EXPECT_EQ(on90[0].packages[0].coverage, ImageOutcome::Missing);  // cuda126 loads, and it is sm_80 only
  // The override picks the other.
  const auto overridden = judge_inventory(inv, {arch::parse_device_spec("9.0@580")}, {13, {{"BNB_CUDA_VERSION", "130"}}});
  EXPECT_EQ(overridden[0].packages[0].coverage, ImageOutcome::Sass);
  // A framework CUDA for which no variant is shipped: the package loads nothing.
  inv.framework_cuda = CudaSource{arch::CudaVersion::from(12, 9), "torch 2.8.0+cu129"};
  const auto none = judge_inventory(inv, {arch::parse_device_spec("8.0@580")}, {13});
  EXPECT_EQ(none[0].packages[0].coverage, ImageOutcome::Missing);
  EXPECT_NE(none[0].packages[0].cause.find("no variant is built for exactly that version"), std::string::npos)
      << none[0].packages[0].cause;
  Distribution runtime;
  runtime.package = named("nvidia-cuda-runtime-cu12", "12.4.127");
  EXPECT_EQ(framework_cuda_of({runtime})->cuda.str(), "12.4");
  EXPECT_FALSE(framework_cuda_of({}).has_value());
}

// An inventory of two files: a whole-list extension built for sm_80 that links CUDA 13, and a
// dispatching library; attributed to one dist-info and one loose file.
Inventory two_files() {
  Inventory inv;
  auto entry = [](int container, int arch) {
    binary::FatbinEntry e;
    e.is_image = true;
    e.container = container;
    e.target = arch::CodeTarget{arch::ImageKind::Sass, arch, arch::Suffix::None, arch, {}};
    return e;
  };
  DeviceCodeFile ext;
  ext.path = ext.key = "ext/_C.so";
  ext.entries = {entry(0, 80)};
  ext.needed = {"libcudart.so.13"};
  ext.kind = binary::classify_binary("_C.so", ext.entries);
  DeviceCodeFile lib;
  lib.path = lib.key = "lib/libcublasLt.so.13";
  lib.entries = {entry(0, 80), entry(1, 90)};
  lib.kind = binary::classify_binary("libcublasLt.so.13", lib.entries);
  inv.files = {ext, lib};
  Distribution d;
  d.package = named("ext", "1.0");
  d.package.origin = Package::Origin::DistInfo;
  d.files = {"ext/_C.so"};
  attribute(inv, {d});
  return inv;
}

TEST(Judgement, PerPackageWorstFirstWithAdviceByRole) {
  const Inventory inv = two_files();
  ASSERT_EQ(inv.packages.size(), 2u);
  const auto j = judge_inventory(inv, {arch::parse_device_spec("9.0@580"), arch::parse_device_spec("8.6@570")}, {13});
  ASSERT_EQ(j.size(), 2u);
  const auto& on90 = j[0].packages;
  EXPECT_EQ(inv.packages[on90[0].package].name, "ext");  // the failing one first
  EXPECT_EQ(on90[0].coverage, ImageOutcome::Missing);
  EXPECT_NE(on90[0].fix.find("TORCH_CUDA_ARCH_LIST"), std::string::npos) << on90[0].fix;
  EXPECT_EQ(on90[1].coverage, ImageOutcome::Sass);  // the library serves 9.0
  // On a 12.8 driver the CUDA 13 runtime is what fails, for both (libcublasLt.so.13 names its major).
  for (const auto& p : j[1].packages) EXPECT_EQ(p.coverage, ImageOutcome::NeedsNewerDriver);
  EXPECT_NE(j[1].packages[0].fix.find("580"), std::string::npos);
}

TEST(Judgement, AnExtensionIsNeverToldToUseAnArchItsNvccCannotBuild) {
  const auto j = judge_inventory(two_files(), {arch::parse_device_spec("7.0@580")}, {13});
  const auto& ext = j[0].packages[0];
  EXPECT_NE(ext.fix.find("CUDA 12.x toolkit"), std::string::npos) << ext.fix;
}

TEST(ScanReport, ConsoleFitsAndJsonSaysWhetherEverythingRuns) {
  const Inventory inv = two_files();
  ScanReport r;
  r.inventory = &inv;
  r.devices = judge_inventory(inv, {arch::parse_device_spec("9.0@580")}, {13});
  const std::string text = format_scan(r);
  for (size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    EXPECT_LE(end - at, 120u) << text.substr(at, end - at);
  }
  EXPECT_NE(text.find("-> FAIL"), std::string::npos);
  const auto json = scan_to_json(r);
  EXPECT_EQ(json.at("schema"), "archbench.scan");
  EXPECT_FALSE(json.at("every_package_runs").get<bool>());
  // One spelling per verdict in every output: the console, the Markdown and the JSON say `no-image`.
  EXPECT_NE(format_scan_markdown(r).find("| ext 1.0 | missing |"), std::string::npos);
  EXPECT_NE(text.find("  missing "), std::string::npos) << text;
  EXPECT_EQ(text.find("no image "), std::string::npos) << text;
}

TEST(DoctorPythonStack, FindingsPerPackage) {
  doctor::PythonStackFacts f;
  f.env = PythonEnvironment{"/venv/bin/python3", "3.12.3", "/venv", {"/venv/lib"}};
  f.inventory = two_files();
  f.judgements = judge_inventory(f.inventory, {arch::parse_device_spec("9.0@580")}, {13});
  doctor::Checklist c;
  doctor::check_python_stack(f, c);
  ASSERT_EQ(c.all_of("python-stack").size(), 2u);
  EXPECT_EQ(c.all_of("python-stack")[0]->outcome, doctor::Outcome::Fail);
  EXPECT_EQ(c.all_of("python-stack")[1]->outcome, doctor::Outcome::Pass);
  doctor::PythonStackFacts none;
  none.error = "cannot run python3";
  doctor::Checklist c2;
  doctor::check_python_stack(none, c2);
  EXPECT_EQ(c2.find("python-stack")->outcome, doctor::Outcome::Skip);
}

}  // namespace
}  // namespace archbench::stack
