#include "harness/arch/products.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

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

std::string product_names() {
  std::string out;
  for (const auto& p : products()) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

}  // namespace

const std::vector<Product>& products() {
  // developer.nvidia.com/cuda-gpus (docs/reference/compat.md, "Driver and runtime versions").
  // Longer names first so "RTX 5090" is not
  // taken for a shorter prefix.
  static const std::vector<Product> table{
      {"T4", {7, 5}}, {"Quadro RTX 8000", {7, 5}}, {"Quadro RTX 6000", {7, 5}}, {"Quadro RTX 5000", {7, 5}},
      {"Quadro RTX 4000", {7, 5}}, {"RTX 2080", {7, 5}}, {"RTX 2070", {7, 5}}, {"RTX 2060", {7, 5}},
      {"GTX 1660", {7, 5}}, {"GTX 1650", {7, 5}},
      {"A100", {8, 0}}, {"A30", {8, 0}},
      {"A40", {8, 6}}, {"A10", {8, 6}}, {"A16", {8, 6}}, {"A2", {8, 6}}, {"RTX A6000", {8, 6}}, {"RTX A5000", {8, 6}},
      {"RTX A4000", {8, 6}}, {"RTX A2000", {8, 6}}, {"RTX 3090", {8, 6}}, {"RTX 3080", {8, 6}}, {"RTX 3070", {8, 6}},
      {"RTX 3060", {8, 6}}, {"RTX 30", {8, 6}},
      {"Jetson AGX Orin", {8, 7}}, {"Jetson Orin NX", {8, 7}}, {"Jetson Orin Nano", {8, 7}}, {"Jetson Orin", {8, 7}},
      {"L4", {8, 9}}, {"L40S", {8, 9}}, {"L40", {8, 9}}, {"RTX 6000 Ada", {8, 9}}, {"RTX 5000 Ada", {8, 9}},
      {"RTX 4500 Ada", {8, 9}}, {"RTX 4000 Ada", {8, 9}}, {"RTX 2000 Ada", {8, 9}}, {"RTX 4090", {8, 9}},
      {"RTX 4080", {8, 9}}, {"RTX 4070", {8, 9}}, {"RTX 4060", {8, 9}}, {"RTX 40", {8, 9}},
      {"H100", {9, 0}}, {"H200", {9, 0}}, {"GH200", {9, 0}},
      {"B200", {10, 0}}, {"GB200", {10, 0}}, {"B300", {10, 3}}, {"GB300", {10, 3}},
      {"Jetson T5000", {11, 0}}, {"Jetson T4000", {11, 0}}, {"Jetson Thor", {11, 0}},
      {"RTX PRO 6000 Blackwell", {12, 0}}, {"RTX PRO 5000 Blackwell", {12, 0}}, {"RTX PRO 4500 Blackwell", {12, 0}},
      {"RTX PRO 4000 Blackwell", {12, 0}}, {"RTX PRO 2000 Blackwell", {12, 0}}, {"RTX 5090", {12, 0}},
      {"RTX 5080", {12, 0}}, {"RTX 5070", {12, 0}}, {"RTX 5060", {12, 0}}, {"RTX 5050", {12, 0}}, {"RTX 50", {12, 0}},
      {"DGX Spark", {12, 1}}, {"GB10", {12, 1}},
  };
  return table;
}

std::vector<std::string_view> products_for(ComputeCapability cc) {
  std::vector<std::string_view> out;
  for (const auto& p : products()) if (p.cc == cc) out.push_back(p.name);
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
    if (auto v = cuda_of_driver_branch(n); v && n >= 300) return *v;        // "580"
  }
  throw std::invalid_argument("cannot read driver '" + std::string(text) +
                              "': give a CUDA version (12.8 or 12080) or a driver branch (580, r570)");
}

DeviceSpec parse_device_spec(std::string_view text) {
  DeviceSpec spec;
  spec.label = std::string(text);
  std::string_view device = text;
  if (auto at = text.rfind('@'); at != std::string_view::npos) {
    device = text.substr(0, at);
    spec.driver = parse_driver(text.substr(at + 1));
  }
  if (auto cc = parse_cc(device)) {
    spec.cc = *cc;
  } else {
    const std::string want = normalize(device);
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
    if (found == nullptr) {
      throw std::invalid_argument("unknown device '" + std::string(device) +
                                  "': give a compute capability (8.9, 12.0), optionally @driver (12.0@12080, 9.0@580), "
                                  "or one of: " + product_names());
    }
    spec.cc = found->cc;
  }
  std::string names;
  for (auto n : products_for(spec.cc)) names += (names.empty() ? "" : ", ") + std::string(n);
  spec.products = names;
  return spec;
}

}  // namespace archbench::arch
