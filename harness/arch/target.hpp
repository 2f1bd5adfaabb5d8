// One code target of a CUDA build: a SASS image (sm_XY) or a PTX image (compute_XY),
// optionally arch-specific (`a`) or family-specific (`f`).
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/arch/cuda_versions.hpp"

namespace archbench::arch {

enum class ImageKind { Sass, Ptx };

// `a`: runs only on exactly this compute capability; `f`: runs on the family (docs/reference/compat.md,
// "Summary: which image a kernel gets").
enum class Suffix { None, ArchSpecific, FamilySpecific };

// A compute capability, kept as the number nvcc uses (8.6 -> 86, 12.0 -> 120).
struct ComputeCapability {
  int major = 0;
  int minor = 0;
  [[nodiscard]] int number() const { return major * 10 + minor; }
  [[nodiscard]] std::string str() const;  // "8.6"
  static ComputeCapability from_number(int n) { return {n / 10, n % 10}; }
  auto operator<=>(const ComputeCapability&) const = default;
};

struct CodeTarget {
  ImageKind kind = ImageKind::Sass;
  int arch = 0;                  // 80, 90, 100, ...
  Suffix suffix = Suffix::None;
  int virtual_arch = 0;          // SASS: the compute_XY it was generated from; PTX: == arch
  PtxIsa ptx_isa{};              // PTX only: the ISA version in the image (unknown = not judged)

  [[nodiscard]] ComputeCapability cc() const { return ComputeCapability::from_number(arch); }
  [[nodiscard]] std::string name() const;          // "sm_90a", "compute_80"
  [[nodiscard]] std::string virtual_name() const;  // "compute_90a"
  auto operator<=>(const CodeTarget&) const = default;
};

[[nodiscard]] std::string_view suffix_letter(Suffix s);  // "", "a", "f"

// Parses the canonical names this module prints ("sm_90a", "compute_80"); nothing else.
[[nodiscard]] std::optional<CodeTarget> parse_target_name(std::string_view name);

// "sm_80 sm_90 compute_90" in the order given.
[[nodiscard]] std::string join_names(const std::vector<CodeTarget>& targets, std::string_view sep = " ");

}  // namespace archbench::arch
