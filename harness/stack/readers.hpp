// The readers of `archbench scan`'s inputs, each adding to an Inventory (inventory.hpp):
// a directory tree (a site-packages, a venv or conda prefix, ComfyUI's custom_nodes, /usr/lib),
// a wheel (read in place), a container image archive (`docker save` or OCI layout: layers in
// order, whiteouts honoured), or one binary. Device code is found by content, never by name:
// every regular file's first bytes are read and only ELF, PE and fatbin files are parsed.
// A file that cannot be read or is malformed becomes an Unreadable entry; the reading goes on.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/stack/inventory.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench::stack {

struct ReadOptions {
  bool kernels = false;  // also decompress every image to name its kernels (--kernels)
  unsigned threads = 0;  // 0: one per hardware thread
  // Called now and then with what has been done so far (files looked at, device-code files read).
  std::function<void(size_t files_seen, size_t device_files)> progress;
};

enum class SourceKind { Tree, Wheel, Image, AotiPackage, Binary };
inline constexpr auto kSourceKinds = enum_names<SourceKind>({
    {SourceKind::Tree, "directory"},
    {SourceKind::Wheel, "wheel"},
    {SourceKind::Image, "image"},
    {SourceKind::AotiPackage, "AOTInductor package"},
    {SourceKind::Binary, "file"},
});
[[nodiscard]] constexpr std::string_view source_kind_name(SourceKind k) { return name_of(kSourceKinds, k); }
// By what the path is: a directory, a zip named .whl, a zip named .pt2 (an AOTInductor package), a
// tar holding manifest.json / index.json, else one binary. Throws std::system_error when the path does not exist.
[[nodiscard]] SourceKind source_kind_of(const std::string& path);

void read_tree(const std::string& root, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists);
void read_wheel(const std::string& path, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists);
void read_image(const std::string& path, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists);
void read_binary(const std::string& path, const ReadOptions& o, Inventory& inv);
// An AOTInductor package (torch._inductor.aoti_compile_and_package, PyTorch's PT2 archive: a zip with
// the compiled model under data/aotinductor/<model>/, its kernels as .cubin files beside the wrapper
// .so). Its device code runs only on the architecture it was compiled for, so it is judged like any
// binary. `source` and `key` say where the package lies (for a package inside a directory tree).
void read_aoti_package(const std::string& path, const std::string& source, const std::string& key,
                       const std::string& shown_as, const ReadOptions& o, Inventory& inv);

// "a TensorRT engine ..." for a file named as TensorRT's serialized engines are (.engine, .plan,
// .trt): listed under "not judged" with why (an engine runs only on the GPU model it was built on);
// nullopt for other names.
[[nodiscard]] std::optional<std::string> tensorrt_engine_note(std::string_view file_name);

// One source of any kind (source_kind_of decides).
void read_source(const std::string& path, const ReadOptions& o, Inventory& inv, std::vector<Distribution>& dists);

// Whether a cubin at `path` is an entry of Triton's kernel cache.
[[nodiscard]] bool is_triton_cache_entry(const std::string& path);
// Whether a cubin lies in TorchInductor's cache (/tmp/torchinductor_<user>/...): listed, not judged.
[[nodiscard]] bool is_inductor_cache_entry(const std::string& path);

// What a binary holds, as an inventory file; nullopt for a file without device code.
[[nodiscard]] std::optional<DeviceCodeFile> describe(const binary::BinaryFile& file, bool kernels);

}  // namespace archbench::stack
