#include "harness/arch/products.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/arch/compat.hpp"
#include "harness/util/edit_distance.hpp"

namespace archbench::arch {
namespace {

std::string normalize(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::optional<ComputeCapability> parse_cc(std::string_view s) {
  const auto dot = s.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 2 != s.size()) return std::nullopt;
  int major = 0, minor = 0;
  auto r1 = std::from_chars(s.data(), s.data() + dot, major);
  auto r2 = std::from_chars(s.data() + dot + 1, s.data() + s.size(), minor);
  if (r1.ec != std::errc{} || r1.ptr != s.data() + dot || r2.ec != std::errc{} || r2.ptr != s.data() + s.size()) {
    return std::nullopt;
  }
  if (major < 1 || major > 99) return std::nullopt;
  return ComputeCapability{major, minor};
}

// "sm_90", "sm90", "compute_90", "sm_90a", "90", "120": a compute capability without its dot.
std::optional<ComputeCapability> parse_cc_number(std::string_view normalized) {
  std::string_view s = normalized;
  for (std::string_view prefix : {"compute", "sm"}) {
    if (s.starts_with(prefix)) {
      s.remove_prefix(prefix.size());
      break;
    }
  }
  if (!s.empty() && (s.back() == 'a' || s.back() == 'f') && s.size() > 1) s.remove_suffix(1);
  if (s.size() < 2 || s.size() > 3) return std::nullopt;
  int n = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), n);
  if (r.ec != std::errc{} || r.ptr != s.data() + s.size() || n < 10) return std::nullopt;
  return ComputeCapability{n / 10, n % 10};
}

// Products by compute capability, one line each, for the unknown-device message.
std::string products_by_cc() {
  std::vector<ComputeCapability> ccs;
  for (const auto& p : products())
    if (std::ranges::find(ccs, p.cc) == ccs.end()) ccs.push_back(p.cc);
  std::ranges::sort(ccs, [](ComputeCapability a, ComputeCapability b) { return a.number() < b.number(); });
  std::string out;
  for (const auto cc : ccs) {
    std::string names;
    for (auto n : products_for(cc)) names += (names.empty() ? "" : ", ") + std::string(n);
    out += "\n  " + cc.str() + " " + std::string(architecture_name(cc)) + ": " + names;
  }
  return out;
}

std::string fmt_product(const Product& p, bool first) {  // "RTX A6000 (8.6)"
  return (first ? "" : " or ") + std::string(p.name) + " (" + p.cc.str() + ")";
}

}  // namespace

const std::vector<Product>& products() {
  // developer.nvidia.com/cuda-gpus (docs/reference/compat.md, "Driver and runtime versions"),
  // Maxwell to Blackwell. Several names per product line; "RTX 30" and the like catch the rest of
  // a series ("RTX 3050 Ti").
  static const std::vector<Product> table{
      {"M60", {5, 2}}, {"M40", {5, 2}}, {"GTX 980", {5, 2}}, {"GTX 970", {5, 2}}, {"Jetson Nano", {5, 3}},
      {"P100", {6, 0}}, {"P40", {6, 1}}, {"P4", {6, 1}}, {"GTX 1080", {6, 1}}, {"GTX 1070", {6, 1}},
      {"GTX 1060", {6, 1}}, {"Jetson TX2", {6, 2}},
      {"V100", {7, 0}}, {"Titan V", {7, 0}}, {"Quadro GV100", {7, 0}}, {"Jetson AGX Xavier", {7, 2}},
      {"Jetson Xavier NX", {7, 2}},
      {"T4", {7, 5}}, {"Quadro RTX 8000", {7, 5}}, {"Quadro RTX 6000", {7, 5}}, {"Quadro RTX 5000", {7, 5}},
      {"Quadro RTX 4000", {7, 5}}, {"RTX 2080", {7, 5}}, {"RTX 2070", {7, 5}}, {"RTX 2060", {7, 5}},
      {"GTX 1660", {7, 5}}, {"GTX 1650", {7, 5}},
      {"A100", {8, 0}}, {"A800", {8, 0}}, {"A30", {8, 0}},
      {"A40", {8, 6}}, {"A10", {8, 6}}, {"A16", {8, 6}}, {"A2", {8, 6}}, {"RTX A6000", {8, 6}}, {"RTX A5000", {8, 6}},
      {"RTX A4000", {8, 6}}, {"RTX A2000", {8, 6}}, {"RTX 3090", {8, 6}}, {"RTX 3080", {8, 6}}, {"RTX 3070", {8, 6}},
      {"RTX 3060", {8, 6}}, {"RTX 30", {8, 6}},
      {"Jetson AGX Orin", {8, 7}}, {"Jetson Orin NX", {8, 7}}, {"Jetson Orin Nano", {8, 7}}, {"Jetson Orin", {8, 7}},
      {"RTX 4090", {8, 9}}, {"RTX 4080", {8, 9}}, {"RTX 4070", {8, 9}}, {"RTX 4060", {8, 9}}, {"RTX 40", {8, 9}},
      {"L4", {8, 9}}, {"L40S", {8, 9}}, {"L40", {8, 9}}, {"L20", {8, 9}}, {"RTX 6000 Ada", {8, 9}},
      {"RTX 5000 Ada", {8, 9}}, {"RTX 4500 Ada", {8, 9}}, {"RTX 4000 Ada", {8, 9}}, {"RTX 2000 Ada", {8, 9}},
      {"H100", {9, 0}}, {"H200", {9, 0}}, {"GH200", {9, 0}}, {"H800", {9, 0}}, {"H20", {9, 0}},
      {"B200", {10, 0}}, {"GB200", {10, 0}}, {"B100", {10, 0}}, {"B300", {10, 3}}, {"GB300", {10, 3}},
      {"Jetson T5000", {11, 0}}, {"Jetson T4000", {11, 0}}, {"Jetson Thor", {11, 0}},
      {"RTX 5090", {12, 0}}, {"RTX 5080", {12, 0}}, {"RTX 5070", {12, 0}}, {"RTX 5060", {12, 0}}, {"RTX 5050", {12, 0}},
      {"RTX 50", {12, 0}}, {"RTX PRO 6000 Blackwell", {12, 0}}, {"RTX PRO 5000 Blackwell", {12, 0}},
      {"RTX PRO 4500 Blackwell", {12, 0}}, {"RTX PRO 4000 Blackwell", {12, 0}}, {"RTX PRO 2000 Blackwell", {12, 0}},
      {"DGX Spark", {12, 1}}, {"GB10", {12, 1}},
  };
  return table;
}

std::string_view architecture_name(ComputeCapability cc) {
  switch (cc.major) {
    case 3: return "Kepler";
    case 5: return "Maxwell";
    case 6: return "Pascal";
    case 7: return cc.minor >= 5 ? "Turing" : "Volta";
    case 8: return cc.minor == 9 ? "Ada" : "Ampere";
    case 9: return "Hopper";
    case 10:
    case 11:
    case 12: return "Blackwell";
    default: return "";
  }
}

std::vector<std::string_view> products_for(ComputeCapability cc) {
  std::vector<std::string_view> out;
  // 10.1 is Thor's compute capability under a CUDA 12 driver (parse_device_spec): the table lists its 11.0.
  const ComputeCapability listed = cc == kThorBeforeCuda13 ? kThorFromCuda13 : cc;
  for (const auto& p : products()) if (p.cc == listed) out.push_back(p.name);
  return out;
}

CudaVersion parse_driver(std::string_view text) {
  std::string_view s = text;
  if (!s.empty() && (s.front() == 'r' || s.front() == 'R')) s.remove_prefix(1);
  if (auto cc = parse_cc(s)) return CudaVersion::from(cc->major, cc->minor);  // "12.8"
  int n = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), n);
  if (r.ec == std::errc{} && r.ptr == s.data() + s.size()) {
    if (n >= 10000) return CudaVersion{n};                                   // "12080"
    // "580": a branch has three digits; "5800" is neither a branch nor a version (a typo, not 13.x).
    if (auto v = cuda_of_driver_branch(n); v && n >= 300 && n <= 999) return *v;
  }
  throw std::invalid_argument("cannot read driver '" + std::string(text) +
                              "': give a CUDA version (12.8 or 12080) or a driver branch (580, r570)");
}

DeviceSpec parse_device_spec(std::string_view text) {
  DeviceSpec spec;
  spec.label = std::string(text);
  spec.given = std::string(text);
  std::string_view device = text;
  if (auto at = text.rfind('@'); at != std::string_view::npos) {
    device = text.substr(0, at);
    spec.driver = parse_driver(text.substr(at + 1));
  }
  const std::string want = normalize(device);
  if (auto cc = parse_cc(device)) {
    spec.cc = *cc;
  } else if (auto number = parse_cc_number(want)) {
    spec.cc = *number;
  } else {
    const Product* found = nullptr;
    for (const auto& p : products()) {
      if (normalize(p.name) == want) found = &p;
    }
    if (found == nullptr && !want.empty()) {  // "NVIDIA GeForce RTX 5090": the longest table name inside it
      for (const auto& p : products()) {
        const std::string n = normalize(p.name);
        if (want.find(n) != std::string::npos && (found == nullptr || n.size() > normalize(found->name).size())) found = &p;
      }
    }
    if (found == nullptr && want.size() >= 3) {  // "4090", "a6000", "rtx pro 6000": a name less a word
      auto letters = [](std::string_view w) {
        return !w.empty() && std::ranges::all_of(w, [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
      };
      std::vector<const Product*> candidates;
      for (const auto& p : products()) {
        const std::string n = normalize(p.name);
        if (n.size() <= want.size()) continue;
        const std::string_view head(n.data(), n.size() - want.size()), tail(n.data() + want.size(), n.size() - want.size());
        if ((n.ends_with(want) && letters(head)) || (n.starts_with(want) && letters(tail))) candidates.push_back(&p);
      }
      if (!candidates.empty() && std::ranges::all_of(candidates, [&](const Product* p) { return p->cc == candidates[0]->cc; })) {
        found = candidates[0];
      } else if (!candidates.empty()) {
        std::string names;
        for (const auto* p : candidates) names += fmt_product(*p, names.empty());
        throw std::invalid_argument("device '" + std::string(device) + "' could be " + names +
                                    ": give the full name or a compute capability");
      }
    }
    if (found == nullptr) {
      std::vector<std::string> normalized;
      for (const auto& p : products()) normalized.push_back(normalize(p.name));
      const auto near = nearest(want, normalized, 1 + want.size() / 6);  // a typo: "H10", "RTX 4900"
      std::string hint;
      if (near) {
        for (const auto& p : products())
          if (normalize(p.name) == *near) hint = " (did you mean " + std::string(p.name) + "?)";
      }
      throw std::invalid_argument("unknown device '" + std::string(device) + "'" + hint +
                                  ": give a compute capability (8.9, 89 or sm_89) or a product name, optionally "
                                  "@driver (9.0@580, \"RTX 5090@12.8\"). Known products:" + products_by_cc());
    }
    spec.cc = found->cc;
    spec.product = std::string(found->name);
    // The table lists Thor by its CUDA 13 compute capability; the driver decides which it reports.
    if (spec.cc == kThorFromCuda13) spec.cc = thor_cc(spec.driver);
  }
  std::string names;
  for (auto n : products_for(spec.cc)) names += (names.empty() ? "" : ", ") + std::string(n);
  spec.products = names;
  return spec;
}

std::string describe_device(const DeviceSpec& d) {
  const std::string_view arch = architecture_name(d.cc);
  if (!d.product.empty()) return d.product + " (" + d.cc.str() + (arch.empty() ? "" : ", " + std::string(arch)) + ")";
  const auto all = products_for(d.cc);
  std::string examples;
  for (size_t i = 0; i < std::min<size_t>(all.size(), 3); ++i) examples += (i ? ", " : "") + std::string(all[i]);
  if (all.size() > 3) examples += ", ...";
  if (arch.empty()) return examples.empty() ? d.cc.str() : d.cc.str() + " (" + examples + ")";
  return d.cc.str() + " (" + std::string(arch) + (examples.empty() ? "" : ": " + examples) + ")";
}

}  // namespace archbench::arch
