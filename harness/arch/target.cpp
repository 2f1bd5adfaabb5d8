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

namespace {

// Removes `prefix` from the front of s (or `suffix` from its end) when it is there; says whether it was.
bool take_prefix(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}
bool take_suffix(std::string_view& s, char suffix) {
  if (!s.ends_with(suffix)) return false;
  s.remove_suffix(1);
  return true;
}

}  // namespace

std::optional<CodeTarget> parse_target_name(std::string_view name) {
  CodeTarget t;
  if (take_prefix(name, "sm_")) {
    t.kind = ImageKind::Sass;
  } else if (take_prefix(name, "compute_")) {
    t.kind = ImageKind::Ptx;
  } else {
    return std::nullopt;
  }
  if (take_suffix(name, 'a')) {
    t.suffix = Suffix::ArchSpecific;
  } else if (take_suffix(name, 'f')) {
    t.suffix = Suffix::FamilySpecific;
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
