// Packages that ship one library per CUDA runtime and load one of them at import time:
// bitsandbytes/libbitsandbytes_cuda118.so ... _cuda132.so beside each other, the one matching the
// framework's CUDA chosen by the package. Judging such a package by its worst file says "cannot
// run" for a package that runs; what counts is the variant that would load (docs/scan.md,
// "Packages with one library per CUDA runtime").
//
// A family is recognised from the files alone: two or more device-code files of one package in
// one directory whose names differ only in a CUDA version tag (`cuda118`, `cu126`). Which one
// loads is decided by the framework's CUDA found in the same environment (torch's `+cu130`,
// else the nvidia-cuda-runtime wheel's version) and the package's documented override; where a
// package's loader needs a hint, the hint is a row of kLoaderHints (variant_family.cpp).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/arch/cuda_versions.hpp"
#include "harness/stack/inventory.hpp"

namespace archbench::stack {

struct CudaVariant {
  size_t file = 0;          // index into Inventory::files
  arch::CudaVersion cuda;   // from its tag: cuda128 -> 12.8
  std::string tag;          // "cuda128", as in the file name
};

struct VariantFamily {
  std::string pattern;                // "bitsandbytes/libbitsandbytes_cuda{}.so": the name with the tag's digits cut
  std::vector<CudaVariant> variants;  // ascending by CUDA version
};

// The families among a package's files (each file in at most one); none for most packages.
[[nodiscard]] std::vector<VariantFamily> find_variant_families(const Package& p, const Inventory& inv);

// How a package's loader picks its variant.
enum class VariantMatch {
  Exact,                  // the variant of exactly the framework's CUDA, or none loads (bitsandbytes)
  NewestOfTheSameMajor,   // the newest variant of the framework's CUDA major not newer than it
};

struct LoaderHint {
  const char* package;            // distribution name
  VariantMatch match;
  const char* override_variable;  // environment variable naming the variant ("BNB_CUDA_VERSION=126"), or nullptr
  const char* source;             // where the rule is documented
};
// The hint for a package; packages without one load by NewestOfTheSameMajor, with no override.
[[nodiscard]] LoaderHint loader_hint(const std::string& package);

// Which variant loads. nullopt `chosen` with a `why` when none does (Exact with no such variant).
struct VariantChoice {
  std::optional<size_t> chosen;  // index into VariantFamily::variants
  std::string why;               // "torch 2.11.0+cu130 selects cuda130"
};
[[nodiscard]] VariantChoice choose_variant(const VariantFamily& family, const LoaderHint& hint, const CudaSource& by);

// The loader override variables of every hint that this process's environment sets: for a scan of
// the environment the process runs in (AdviceContext::loader_overrides).
[[nodiscard]] std::map<std::string, std::string> loader_overrides_from_environment();

// The selector for a package in this inventory: the hint's override variable when set in
// `environment_value` (the caller reads the environment), else the framework's CUDA.
[[nodiscard]] std::optional<CudaSource> variant_selector(const LoaderHint& hint, const Inventory& inv,
                                                              const char* environment_value);

}  // namespace archbench::stack
