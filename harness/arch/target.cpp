#include "harness/arch/target.hpp"

#include <charconv>

namespace archbench::arch {

std::string ComputeCapability::str() const { return std::to_string(major) + "." + std::to_string(minor); }

std::string_view suffix_letter(Suffix s) {
  switch (s) {
    case Suffix::ArchSpecific: return "a";
    case Suffix::FamilySpecific: return "f";
    case Suffix::None: break;
  }
  return "";
}

std::string CodeTarget::name() const {
  return std::string(kind == ImageKind::Sass ? "sm_" : "compute_") + std::to_string(arch) +
         std::string(suffix_letter(suffix));
}

std::string CodeTarget::virtual_name() const {
  return "compute_" + std::to_string(virtual_arch) + std::string(suffix_letter(suffix));
}

std::optional<CodeTarget> parse_target_name(std::string_view name) {
  CodeTarget t;
  if (name.starts_with("sm_")) {
    t.kind = ImageKind::Sass;
    name.remove_prefix(3);
  } else if (name.starts_with("compute_")) {
    t.kind = ImageKind::Ptx;
    name.remove_prefix(8);
  } else {
    return std::nullopt;
  }
  if (name.ends_with('a')) {
    t.suffix = Suffix::ArchSpecific;
    name.remove_suffix(1);
  } else if (name.ends_with('f')) {
    t.suffix = Suffix::FamilySpecific;
    name.remove_suffix(1);
  }
  if (name.empty() || name.size() > 4) return std::nullopt;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), t.arch);
  if (ec != std::errc{} || end != name.data() + name.size() || t.arch < 10) return std::nullopt;
  t.virtual_arch = t.arch;
  return t;
}

std::string join_names(const std::vector<CodeTarget>& targets, std::string_view sep) {
  std::string out;
  for (const auto& t : targets) {
    if (!out.empty()) out += sep;
    out += t.name();
  }
  return out;
}

}  // namespace archbench::arch
