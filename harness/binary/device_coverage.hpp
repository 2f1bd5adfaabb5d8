// Whether a binary serves a device: the one rule `inspect`, `scan` and the doctor share
// (docs/reference/stack.md, "Dispatching libraries and whole-list binaries").
//
// What a kernel without an image means depends on how the binary chooses its kernels:
// - a binary compiled whole for one arch list (PyTorch, an extension) puts every kernel in every
//   target: a kernel without an image for the device is an operator that fails when launched;
// - a library that dispatches per architecture (cuBLAS, cuDNN, cuFFT, NCCL, ...) holds kernels
//   compiled for one architecture each and launches only those of the device's: the question is
//   whether the device is served at all.
// The unit counted is a fatbin container (one compilation unit; read from headers alone, no
// decompression) or a kernel (named, after decompression).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/compat.hpp"
#include "harness/binary/binary_file.hpp"

namespace archbench::binary {

enum class BinaryKind { WholeList, Dispatching };
[[nodiscard]] std::string_view kind_name(BinaryKind k);  // "whole-list", "dispatching"

struct KindGuess {
  BinaryKind kind = BinaryKind::WholeList;
  std::string why;                        // "a CUDA library by name (libcublasLt)", "412 of 444 containers share ..."
  std::vector<arch::CodeTarget> targets;  // whole-list: the targets most containers share (its arch list)
};
// By name first (NVIDIA's CUDA libraries dispatch), then by content: a binary most of whose
// containers carry the same targets was compiled whole for them.
[[nodiscard]] KindGuess classify_binary(std::string_view file_name, const std::vector<FatbinEntry>& entries);

// What one device gets from a binary, unit by unit.
struct CoverageTally {
  size_t units = 0;
  std::map<ImageOutcome, size_t> by_status;
  // Units that hold only `a` / `f` code for other devices: dispatched there on purpose, so not
  // counted as gaps of a whole-list binary (kept apart so a report can still name them).
  size_t arch_specific_elsewhere = 0;
  std::map<std::string, size_t> images_used;                         // "sass sm_90" -> units
  std::map<std::string, std::vector<std::string>> failing_by_cause;  // "missing: built for ..." -> unit names
  std::string first_fix;
  std::optional<arch::DriverNeed> driver_needed;  // the newest driver a unit's PTX asks for

  [[nodiscard]] size_t count(ImageOutcome s) const;
  [[nodiscard]] size_t loading() const { return count(ImageOutcome::Sass) + count(ImageOutcome::PtxJit); }
  // Units of a whole-list binary that fail here: neither loading nor arch-specific code for other devices.
  [[nodiscard]] size_t failing() const { return units - loading() - arch_specific_elsewhere; }
  // Every unit is arch-specific code for other devices (xformers' FlashAttention-3 library on anything but 9.0).
  [[nodiscard]] bool only_arch_specific_elsewhere() const { return units > 0 && units == arch_specific_elsewhere; }
};
// Per fatbin container, from the entry headers: no payload is read.
[[nodiscard]] CoverageTally tally_containers(const std::vector<FatbinEntry>& entries, const arch::DeviceFacts& device);
// Per kernel (BinaryFile::kernels()).
[[nodiscard]] CoverageTally tally_kernels(const std::vector<KernelImages>& kernels, const arch::DeviceFacts& device);

// Sass and PtxJit: the binary can do its work on the device.
[[nodiscard]] bool runs(ImageOutcome c);

[[nodiscard]] ImageOutcome judge(BinaryKind kind, const CoverageTally& t);

}  // namespace archbench::binary
