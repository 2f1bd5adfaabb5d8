#include "harness/arch/toolkit.hpp"

#include <algorithm>
#include <regex>
#include <stdexcept>
#include <string>

namespace archbench::arch {

bool Toolkit::supports(int arch, Suffix suffix) const {
  if (!std::ranges::binary_search(archs, arch)) return false;
  switch (suffix) {
    case Suffix::None: return true;
    case Suffix::ArchSpecific: return arch >= 90;
    case Suffix::FamilySpecific: return arch >= 100;
  }
  return false;
}

std::string Toolkit::describe() const {
  std::string out;
  for (int a : archs) {
    for (Suffix s : {Suffix::None, Suffix::ArchSpecific, Suffix::FamilySpecific}) {
      if (!supports(a, s)) continue;
      if (!out.empty()) out += ' ';
      out += ComputeCapability::from_number(a).str() + std::string(suffix_letter(s));
    }
  }
  return out;
}

PtxIsa Toolkit::ptx_isa() const { return ptx_isa_of_cuda(version).value_or(PtxIsa{}); }

Toolkit Toolkit::from_nvcc_output(std::string_view version_text, std::string_view gpu_code_text) {
  Toolkit tk;
  static const std::regex release(R"(release ([0-9]{1,3})\.([0-9]{1,3}))");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(version_text.begin(), version_text.end(), m, release)) {
    throw std::invalid_argument("cannot read the release from `nvcc --version` output");
  }
  tk.version = CudaVersion::from(std::stoi(m[1].str()), std::stoi(m[2].str()));

  static const std::regex code(R"(sm_([0-9]{1,4})\b)");
  for (std::regex_iterator<std::string_view::const_iterator> it(gpu_code_text.begin(), gpu_code_text.end(), code), end;
       it != end; ++it) {
    tk.archs.push_back(std::stoi((*it)[1].str()));
  }
  if (tk.archs.empty()) throw std::invalid_argument("`nvcc --list-gpu-code` listed no sm_ targets");
  std::ranges::sort(tk.archs);
  tk.archs.erase(std::unique(tk.archs.begin(), tk.archs.end()), tk.archs.end());
  return tk;
}

}  // namespace archbench::arch
