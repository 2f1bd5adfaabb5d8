#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <iterator>
#include <set>

#include "harness/stack/readers.hpp"

namespace archbench::stack {
namespace {

constexpr uint64_t kSmallContainerBytes = 16 << 10;

}  // namespace

std::optional<DeviceCodeFile> describe(const binary::BinaryFile& file, bool kernels) {
  if (file.entries().empty()) return std::nullopt;
  DeviceCodeFile f;
  f.format = file.format();
  f.containers = file.container_count();
  f.entries = file.entries();
  // Containers that define no kernel at all (libcufftw holds one such sm_75 cubin) would read as
  // code without an image for most devices: small ones are opened to check, and dropped if empty.
  std::map<int, uint64_t> payload;
  for (const auto& e : f.entries) payload[e.container] += e.payload_size;
  std::set<int> empty;
  for (const auto& [c, bytes] : payload) {
    if (bytes > kSmallContainerBytes) continue;
    bool any = false;
    for (const auto& e : f.entries) {
      if (e.container == c && e.is_image && !file.kernel_names(e).empty()) any = true;
    }
    if (!any) empty.insert(c);
  }
  f.empty_containers.assign(empty.begin(), empty.end());
  if (empty.size() == payload.size()) {
    f.not_judged_why = std::to_string(f.containers) + " fatbin container(s) that define no kernel: nothing there can "
                       "fail to load";
    return f;
  }
  f.needed = file.needed();
  f.toolkit = file.toolkit_release();
  f.problems = file.problems();
  f.kind = binary::classify_binary(std::filesystem::path(file.path()).filename().string(), f.judged_entries());
  if (f.format == binary::FileFormat::Cubin && is_triton_cache_entry(file.path())) {
    f.not_judged_why = "an entry of Triton's kernel cache, compiled for " + f.entries.front().target.name() +
                       ": on another device Triton compiles the kernel again (a cache miss, not a failure); a cache "
                       "keyed without the full compute capability once gave wrong results (vllm#41871)";
  } else if (f.format == binary::FileFormat::Cubin && is_inductor_cache_entry(file.path())) {
    f.not_judged_why = "an entry of TorchInductor's cache, compiled for " + f.entries.front().target.name() +
                       ": torch.compile compiles it again for another device (a cache miss, not a failure); an "
                       "AOTInductor package (.pt2, judged as a binary) is the artefact that runs only where it was compiled";
  }
  if (kernels) f.kernels = file.kernels();
  return f;
}

std::optional<std::string> tensorrt_engine_note(std::string_view file_name) {
  // TensorRT's own tools write engines as .engine / .plan (trtexec --saveEngine, Triton Inference
  // Server's model.plan); .trt is the other common name. The format is TensorRT's and undocumented,
  // so the name is what says it: an engine holds kernels chosen for one GPU model and TensorRT version.
  for (const std::string_view ext : {".engine", ".plan", ".trt"}) {
    if (file_name.size() > ext.size() && file_name.ends_with(ext)) {
      return std::string("a TensorRT engine (by its name): it runs only on the GPU model it was built on, with the same "
                         "TensorRT version (elsewhere it fails to deserialize, e.g. \"expecting compute 8.9 got 8.6\"); "
                         "rebuild it on this GPU from its ONNX model (trtexec --onnx=... --saveEngine=...)");
    }
  }
  return std::nullopt;
}

bool is_inductor_cache_entry(const std::string& path) {
  // TorchInductor's default cache is /tmp/torchinductor_<user>/ (TORCHINDUCTOR_CACHE_DIR moves it).
  return path.find("/torchinductor_") != std::string::npos;
}

bool is_triton_cache_entry(const std::string& path) {
  // Triton's default cache is ~/.triton/cache/<hash>/<kernel>.cubin (TRITON_CACHE_DIR moves it; a
  // sibling <kernel>.json with Triton's "target" metadata says so anywhere).
  if (path.find(".triton/cache/") != std::string::npos) return true;
  std::error_code ec;
  std::filesystem::path json(path);
  json.replace_extension(".json");
  if (!std::filesystem::is_regular_file(json, ec) || std::filesystem::file_size(json, ec) > (1 << 20)) return false;
  std::ifstream in(json);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  return text.find("\"target\"") != std::string::npos && text.find("\"backend\"") != std::string::npos;
}

void add_file(Inventory& inv, DeviceCodeFile f) {
  if (f.not_judged_why.empty()) {
    inv.files.push_back(std::move(f));
    return;
  }
  inv.not_judged.push_back(f.path + ": " + f.not_judged_why);
}

std::vector<binary::FatbinEntry> DeviceCodeFile::judged_entries() const {
  std::vector<binary::FatbinEntry> out;
  for (const auto& e : entries) {
    if (!std::ranges::binary_search(empty_containers, e.container)) out.push_back(e);
  }
  return out;
}

}  // namespace archbench::stack
