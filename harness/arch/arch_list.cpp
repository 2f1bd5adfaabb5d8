#include "harness/arch/arch_list.hpp"

#include <utility>
#include <iterator>
#include <algorithm>
#include <array>
#include <cctype>
#include <regex>
#include <set>

#include "harness/arch/compat.hpp"

namespace archbench::arch {
namespace {

// torch/utils/cpp_extension.py (torch 2.11), in its replacement order: combined names first.
struct NamedArch {
  std::string_view name;
  std::string_view items;
};
constexpr std::array kNamedArches{
    NamedArch{"Kepler+Tesla", "3.7"},        NamedArch{"Kepler", "3.5+PTX"},
    NamedArch{"Maxwell+Tegra", "5.3"},       NamedArch{"Maxwell", "5.0;5.2+PTX"},
    NamedArch{"Pascal", "6.0;6.1+PTX"},      NamedArch{"Volta+Tegra", "7.2"},
    NamedArch{"Volta", "7.0+PTX"},           NamedArch{"Turing", "7.5+PTX"},
    NamedArch{"Ampere+Tegra", "8.7"},        NamedArch{"Ampere", "8.0;8.6+PTX"},
    NamedArch{"Ada", "8.9+PTX"},             NamedArch{"Hopper", "9.0+PTX"},
    NamedArch{"Blackwell+Tegra", "11.0"},    NamedArch{"Blackwell", "10.0;10.3;12.0;12.1+PTX"},
};

std::string trim(std::string_view s) {
  auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

std::string lower(std::string s) {
  std::ranges::transform(s, s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

[[noreturn]] void fail(std::string_view given, const Toolkit& tk, const std::string& what) {
  std::string names;
  for (auto n : torch_arch_names()) names += std::string(names.empty() ? "" : " ") + std::string(n);
  throw ArchListError("invalid arch list \"" + std::string(given) + "\": " + what +
                      "\n  nvcc " + tk.version.str() + " supports: " + tk.describe() +
                      "\n  TORCH_CUDA_ARCH_LIST grammar: items M.m[a|f][+PTX] or B(P)[+PTX] (SASS B built from PTX P),"
                      " separated by ';' or whitespace; names: " + names +
                      "\n  CMake grammar: items N[a|f][-real|-virtual] separated by ';' (plain N = SASS + PTX),"
                      " or one of all, all-major, native");
}

Suffix suffix_of(const std::string& letter) {
  if (letter == "a") return Suffix::ArchSpecific;
  if (letter == "f") return Suffix::FamilySpecific;
  return Suffix::None;
}

// Splits on ';' (an empty item there is an error, as in PyTorch) and then on whitespace.
std::vector<std::string> split_items(std::string_view text, std::string_view given, const Toolkit& tk) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    size_t semi = text.find(';', start);
    std::string piece = trim(text.substr(start, semi == std::string_view::npos ? std::string_view::npos : semi - start));
    if (piece.empty()) fail(given, tk, "empty item (check for a stray ';' at the start, the end or doubled)");
    size_t pos = 0;
    while (pos < piece.size()) {
      size_t end = piece.find_first_of(" \t\r\n", pos);
      if (end == std::string::npos) end = piece.size();
      if (end > pos) items.push_back(piece.substr(pos, end - pos));
      pos = end + 1;
    }
    if (semi == std::string_view::npos) break;
    start = semi + 1;
  }
  return items;
}

// Bounded digit counts: no arch number overflows an int (fuzzing found "868888868888").
const std::regex kTorchItem(R"(^([0-9]{1,2})\.([0-9])([af]?)(?:\(([0-9]{1,2})\.([0-9])([af]?)\))?(\+PTX)?$)");
const std::regex kCMakeItem(R"(^([0-9]{1,3})([af]?)(-real|-virtual)?$)");

struct Collector {
  std::string_view given;
  const Toolkit& tk;
  std::vector<CodeTarget> targets;

  void require_supported(int arch, Suffix s, const std::string& item) const {
    if (tk.supports(arch, s)) return;
    std::string shown = ComputeCapability::from_number(arch).str() + std::string(suffix_letter(s));
    std::string why = shown + " (from '" + item + "') is not supported by nvcc " + tk.version.str();
    if (s == Suffix::ArchSpecific && arch < 90) why += "; arch-specific 'a' targets exist from 9.0";
    if (s == Suffix::FamilySpecific && arch < 100) why += "; family 'f' targets exist from 10.0";
    fail(given, tk, why);
  }
  void add_sass(int real, int virt, Suffix s, const std::string& item) {
    require_supported(real, s, item);
    require_supported(virt, s, item);
    targets.push_back({ImageKind::Sass, real, s, virt});
  }
  void add_ptx(int arch, Suffix s, const std::string& item) {
    require_supported(arch, s, item);
    targets.push_back({ImageKind::Ptx, arch, s, arch});
  }
};

void parse_torch_item(const std::string& item, Collector& out) {
  for (const auto& named : kNamedArches) {
    if (item == named.name) {
      for (const auto& sub : split_items(named.items, out.given, out.tk)) parse_torch_item(sub, out);
      return;
    }
    if (item == std::string(named.name) + "+PTX") {
      fail(out.given, out.tk,
           "'" + item + "': '+PTX' after a name is not accepted (PyTorch expands it to '" + std::string(named.items) +
               "+PTX'); write the numbers instead");
    }
  }
  std::smatch m;
  if (!std::regex_match(item, m, kTorchItem)) {
    std::string why = "unknown arch '" + item + "'";
    if (item.find("+PTX+PTX") != std::string::npos) {
      why = "'+PTX' given twice in '" + item + "'";
    } else if (std::regex_match(item, kCMakeItem)) {
      why = "'" + item + "' is CMake grammar but other items are TORCH_CUDA_ARCH_LIST grammar; use one grammar";
    } else {
      for (const auto& named : kNamedArches) {
        if (lower(item) == lower(std::string(named.name))) why += " (names are case-sensitive: did you mean '" + std::string(named.name) + "'?)";
      }
    }
    fail(out.given, out.tk, why);
  }
  const int real = std::stoi(m[1].str()) * 10 + std::stoi(m[2].str());
  const Suffix s = suffix_of(m[3].str());
  int virt = real;
  if (m[4].matched) {
    virt = std::stoi(m[4].str()) * 10 + std::stoi(m[5].str());
    const Suffix vs = suffix_of(m[6].str());
    const bool ok = (vs == s) && virt <= real &&
                    (s == Suffix::None || (s == Suffix::ArchSpecific && virt == real) ||
                     (s == Suffix::FamilySpecific && in_family(virt, real)));
    if (!ok) fail(out.given, out.tk, "'" + item + "': SASS cannot be built from that PTX (needs P <= B, matching a/f)");
  }
  out.add_sass(real, virt, s, item);
  if (m[7].matched) out.add_ptx(virt, s, item);
}

void parse_cmake_item(const std::string& item, Collector& out) {
  std::smatch m;
  std::regex_match(item, m, kCMakeItem);
  const int arch = std::stoi(m[1].str());
  const Suffix s = suffix_of(m[2].str());
  const std::string mode = m[3].str();
  if (mode != "-virtual") out.add_sass(arch, arch, s, item);
  if (mode != "-real") out.add_ptx(arch, s, item);
}

void add_all(bool majors_only, Collector& out) {
  const auto& archs = out.tk.archs;
  for (size_t i = 0; i < archs.size(); ++i) {
    const bool first_of_major = i == 0 || archs[i - 1] / 10 != archs[i] / 10;
    if (!majors_only || first_of_major) out.add_sass(archs[i], archs[i], Suffix::None, majors_only ? "all-major" : "all");
  }
  // nvcc -arch=all / all-major embed PTX of the newest major's first arch (docs/reference/compat.md,
  // "CMake: `CUDA_ARCHITECTURES`").
  int newest = archs.back();
  for (int a : archs) if (a / 10 == newest / 10) { newest = a; break; }
  out.add_ptx(newest, Suffix::None, majors_only ? "all-major" : "all");
}

void add_native(const NativeDetector& detect, Collector& out) {
  if (!detect) fail(out.given, out.tk, "'native' needs GPU detection, which this caller does not provide");
  auto devices = detect();
  if (devices.empty()) fail(out.given, out.tk, "'native' was given but no NVIDIA GPU was detected");
  // As PyTorch: clamp each device to the newest arch this nvcc can build, then SASS for each
  // and PTX for the newest so the build also runs on a later device.
  std::set<int> archs;
  for (auto cc : devices) archs.insert(std::min(cc.number(), out.tk.archs.back()));
  for (int a : archs) out.add_sass(a, a, Suffix::None, "native");
  out.add_ptx(*archs.rbegin(), Suffix::None, "native");
}

}  // namespace

std::vector<std::string_view> torch_arch_names() {
  std::vector<std::string_view> names;
  for (const auto& n : kNamedArches) names.push_back(n.name);
  return names;
}

std::vector<CodeTarget> ArchList::sass() const {
  std::vector<CodeTarget> out;
  std::ranges::copy_if(targets, std::back_inserter(out), [](const CodeTarget& t) { return t.kind == ImageKind::Sass; });
  return out;
}

std::vector<CodeTarget> ArchList::ptx() const {
  std::vector<CodeTarget> out;
  std::ranges::copy_if(targets, std::back_inserter(out), [](const CodeTarget& t) { return t.kind == ImageKind::Ptx; });
  return out;
}

std::vector<std::string> ArchList::nvcc_flags() const {
  std::vector<std::string> flags;
  for (const auto& t : targets) flags.push_back("-gencode=arch=" + t.virtual_name() + ",code=" + t.name());
  return flags;
}

ArchList parse_arch_list(std::string_view text, const Toolkit& toolkit, const NativeDetector& detect_native) {
  ArchList list;
  list.given = std::string(text);
  Collector out{text, toolkit, {}};
  const std::string whole = trim(text);
  if (whole.empty()) fail(text, toolkit, "the list is empty");

  if (whole == "native") {
    add_native(detect_native, out);
  } else if (whole == "all" || whole == "all-major") {
    list.grammar = Grammar::CMake;
    add_all(whole == "all-major", out);
  } else {
    const auto items = split_items(whole, text, toolkit);
    const bool cmake = std::ranges::all_of(items, [](const std::string& i) { return std::regex_match(i, kCMakeItem); });
    list.grammar = cmake ? Grammar::CMake : Grammar::Torch;
    for (const auto& item : items) {
      if (item == "native" || item == "all" || item == "all-major") {
        fail(text, toolkit, "'" + item + "' must be the whole list, not one item of it");
      }
      cmake ? parse_cmake_item(item, out) : parse_torch_item(item, out);
    }
  }
  std::ranges::sort(out.targets);
  out.targets.erase(std::unique(out.targets.begin(), out.targets.end()), out.targets.end());
  list.targets = std::move(out.targets);
  return list;
}

}  // namespace archbench::arch
