// What `archbench scan` found in a stack before any device is judged: the files with device
// code, the distributions they belong to, and what could not be read. Built by the readers of
// directories (walk_tree), wheels (read_wheel), container images (read_image) and single files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/binary/binary_file.hpp"
#include "harness/binary/device_coverage.hpp"

namespace archbench::stack {

// One file that holds device code (a fatbin section, a cubin, a fatbin), as read.
struct DeviceCodeFile {
  std::string path;    // within its source: "torch/lib/libtorch_cuda.so" (relative to the site-packages
                       // or tree), "usr/lib/x86_64-linux-gnu/libcudnn.so.9" (in an image)
  std::string source;  // the PATH it was found under: a directory, a wheel, an image, the file itself
  std::string key;     // the path distributions list it by: absolute and normalised for a directory,
                       // the member path in a wheel or image
  binary::FileFormat format = binary::FileFormat::Elf;
  uint64_t size = 0;
  int containers = 0;
  std::vector<binary::FatbinEntry> entries;  // headers only: enough for every container-level verdict
  // Containers that define no kernel (opened when small): counted in the inventory, not judged.
  std::vector<int> empty_containers;         // ascending
  [[nodiscard]] std::vector<binary::FatbinEntry> judged_entries() const;
  std::vector<std::string> needed;           // DT_NEEDED / PE imports
  std::optional<arch::CudaVersion> toolkit;  // the CUDA that compiled its cubins (their toolkit notes)
  std::vector<std::string> problems;         // sections that could not be read (judged without them)
  binary::KindGuess kind;
  std::vector<binary::KernelImages> kernels;  // filled only when asked for (--kernels)
  // Why it is listed but not judged, empty when it is judged: no container defines a kernel (cuFFT's
  // lone sm_75 cubin would read as code without an image for most devices), or it is an entry of
  // Triton's kernel cache (Triton compiles again for another device: a miss, not a failure).
  std::string not_judged_why;
};

// A distribution: a wheel's or an installed package's dist-info, a conda package, or a file
// found outside any (a package of its own, named by the file).
struct Package {
  std::string name;     // "torch", "nvidia-cudnn-cu13"; for an unattributed file its name
  std::string version;  // "2.11.0+cu130"; empty when unknown
  enum class Origin { Wheel, DistInfo, Conda, Unattributed } origin = Origin::Unattributed;
  std::string where;          // the dist-info, conda-meta file or directory it was read from
  std::vector<size_t> files;  // indices into Inventory::files
  // A CUDA variant the package declares: a wheel's local version label (+cu128 -> 12.8), or
  // the CUDA major of an nvidia-*-cuNN name. Checked against what its binaries link.
  std::optional<int> declared_cuda_major;
  std::string declared_from;  // "+cu128", "-cu13"
  // The arch list it says it was compiled for ("sm_80", ..., "compute_120"), and the file that
  // says so (declared_arch_list.hpp). Checked against the images of its whole-list binaries.
  std::vector<std::string> declared_arch_list;
  std::string declared_arch_list_from;
};

// A file that declares an arch list, found by a reader; attributed to its package later.
struct ArchListDeclaration {
  std::string key;     // as DeviceCodeFile::key
  std::string path;    // as DeviceCodeFile::path
  std::string source;  // as DeviceCodeFile::source
  std::vector<std::string> targets;
};

// A CUDA version and what says so ("torch 2.11.0+cu130", "BNB_CUDA_VERSION=126").
struct CudaSource {
  arch::CudaVersion cuda;
  std::string from;
};

struct Unreadable {
  std::string path;
  std::string why;
};

struct Inventory {
  std::vector<std::string> sources;
  std::vector<DeviceCodeFile> files;
  std::vector<Package> packages;  // only those with device code, in name order
  std::vector<Unreadable> unreadable;
  std::vector<std::string> notes;  // odd but harmless findings: names escaping an archive, symlink loops
  std::vector<ArchListDeclaration> declarations;
  // Device code listed but not judged (DeviceCodeFile::not_judged_why): "path: why", in reading order.
  std::vector<std::string> not_judged;
  size_t files_seen = 0;  // every regular file looked at (its first bytes read)
  // The CUDA the environment's framework was built for (what torch.version.cuda says): torch's
  // local version label (+cu130), else the version of the nvidia-cuda-runtime wheel installed;
  // set by attribute() from every distribution, with device code or not.
  std::optional<CudaSource> framework_cuda;
};

// Adds a file a reader found: to `files`, or to `not_judged` with its reason.
void add_file(Inventory& inv, DeviceCodeFile f);

// A distribution's files, from its RECORD (dist-info) or files list (conda): paths relative to
// `root` (the site-packages or prefix).
struct Distribution {
  Package package;            // name, version, origin, where, declared CUDA
  std::string source;         // the archive it was read from (its files' DeviceCodeFile::source); "" for a directory
  std::string root;           // what the file paths are relative to, in the files' key space
  std::vector<std::string> files;
};

// Parses a dist-info METADATA ("Name: torch", "Version: 2.11.0+cu130").
[[nodiscard]] std::pair<std::string, std::string> parse_metadata(const std::string& text);
// Parses a RECORD file: the first CSV column of each line (paths, quoted when they hold commas).
[[nodiscard]] std::vector<std::string> parse_record(const std::string& text);
// A declared CUDA variant: "+cu128" in a version -> 12, "nvidia-cudnn-cu13" -> 13, "cupy-cuda12x" -> 12.
void read_declared_cuda(Package& p);

// The framework's CUDA among these distributions (Inventory::framework_cuda), nullopt when none says.
[[nodiscard]] std::optional<CudaSource> framework_cuda_of(const std::vector<Distribution>& dists);

// Attaches every file to the distribution that lists it (its RECORD path, normalised), the rest
// to an unattributed group per directory; keeps only packages with files.
void attribute(Inventory& inv, const std::vector<Distribution>& dists);

}  // namespace archbench::stack
