#include "harness/stack/variant_family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <array>
#include <filesystem>
#include <map>
#include <regex>
#include <string_view>

namespace archbench::stack {
namespace {

// Documented loading rules of packages whose loader is not the default. One row per package.
constexpr std::array kLoaderHints{
    LoaderHint{"bitsandbytes", VariantMatch::Exact, "BNB_CUDA_VERSION",
               "bitsandbytes/cextension.py: libbitsandbytes_cuda{torch.version.cuda without the dot}, "
               "overridden by BNB_CUDA_VERSION; a missing variant is an error"},
};

// "126" -> 12.6, "130" -> 13.0, "12" -> 12.0; nullopt for anything else.
std::optional<arch::CudaVersion> cuda_of_tag_digits(const std::string& digits) {
  if (digits.size() == 2) return arch::CudaVersion::from(std::stoi(digits), 0);
  if (digits.size() == 3) return arch::CudaVersion::from(std::stoi(digits.substr(0, 2)), digits[2] - '0');
  return std::nullopt;
}

}  // namespace

LoaderHint loader_hint(const std::string& package) {
  for (const auto& h : kLoaderHints) {
    if (package == h.package) return h;
  }
  return {"", VariantMatch::NewestOfTheSameMajor, nullptr, "the default rule (docs/scan.md)"};
}

std::map<std::string, std::string> loader_overrides_from_environment() {
  std::map<std::string, std::string> out;
  for (const auto& h : kLoaderHints) {
    if (h.override_variable == nullptr) continue;
    if (const char* v = std::getenv(h.override_variable); v != nullptr) out[h.override_variable] = v;
  }
  return out;
}

std::vector<VariantFamily> find_variant_families(const Package& p, const Inventory& inv) {
  // A tag: "cuda" or "cu" and two or three digits, not inside a longer word or number
  // ("libfoo_cuda126.so", "foo-cu118.dll"; not "libcudart.so.13", not "cu1234").
  static const std::regex tag(R"((^|[_.\-])(cuda|cu)(\d{2,3})(?=[_.\-]|$))", std::regex::icase);
  std::map<std::string, VariantFamily> by_pattern;
  for (size_t fi : p.files) {
    const std::filesystem::path path(inv.files[fi].path);
    const std::string name = path.filename().string();
    std::smatch m;
    if (!std::regex_search(name, m, tag)) continue;
    const auto cuda = cuda_of_tag_digits(m[3]);
    if (!cuda || cuda->major() < 7) continue;
    const std::string stem = m.prefix().str() + m[1].str() + m[2].str() + "{}" + m.suffix().str();
    const std::string pattern = (path.parent_path() / stem).generic_string();
    by_pattern[pattern].pattern = pattern;
    by_pattern[pattern].variants.push_back({fi, *cuda, m[2].str() + m[3].str()});
  }
  std::vector<VariantFamily> out;
  for (auto& [pattern, family] : by_pattern) {
    if (family.variants.size() < 2) continue;  // one tagged file is an ordinary file
    std::ranges::sort(family.variants, {}, [](const CudaVariant& v) { return v.cuda.value; });
    out.push_back(std::move(family));
  }
  return out;
}

VariantChoice choose_variant(const VariantFamily& family, const LoaderHint& hint, const CudaSource& by) {
  const auto& vs = family.variants;
  std::optional<size_t> chosen;
  for (size_t i = 0; i < vs.size(); ++i) {
    const bool fits = hint.match == VariantMatch::Exact
                          ? vs[i].cuda.value == by.cuda.value
                          : vs[i].cuda.major() == by.cuda.major() && vs[i].cuda.value <= by.cuda.value;
    if (fits) chosen = i;  // ascending: the last that fits is the newest
  }
  if (chosen) return {chosen, fmt::format("{} selects {}", by.from, vs[*chosen].tag)};
  return {std::nullopt, fmt::format("{} selects CUDA {}, and no variant is built for {}", by.from, by.cuda.str(),
                                    hint.match == VariantMatch::Exact ? "exactly that version"
                                                                      : "it or an older release of its major")};
}

std::optional<CudaSource> variant_selector(const LoaderHint& hint, const Inventory& inv, const char* environment_value) {
  if (hint.override_variable != nullptr && environment_value != nullptr && *environment_value != '\0') {
    const std::string v(environment_value);
    const bool digits = std::ranges::all_of(v, [](char c) { return c >= '0' && c <= '9'; });
    if (const auto cuda = digits ? cuda_of_tag_digits(v) : std::nullopt) {
      return CudaSource{*cuda, fmt::format("{}={}", hint.override_variable, v)};
    }
  }
  return inv.framework_cuda;
}

}  // namespace archbench::stack
