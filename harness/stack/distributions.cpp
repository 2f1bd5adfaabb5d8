#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "harness/stack/inventory.hpp"

namespace archbench::stack {
namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

// "a/./b/../c" -> "a/c", without touching the file system (archive paths have none).
std::string normal(const std::string& p) { return std::filesystem::path(p).lexically_normal().generic_string(); }

// A directory's files have absolute keys; an archive's are paths inside it, so two wheels scanned together list
// the same path (cupy-cuda12x and cupy-cuda13x both have cupy/_core/core.pyd): those keys carry their archive.
std::string scoped(const std::string& source, const std::string& key) {
  const std::string k = normal(key);
  return std::filesystem::path(k).is_absolute() ? k : source + "!" + k;
}

}  // namespace

std::pair<std::string, std::string> parse_metadata(const std::string& text) {
  std::string name, version;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line == "\r") break;  // the headers end at the first empty line
    if (line.starts_with("Name:") && name.empty()) name = trim(line.substr(5));
    if (line.starts_with("Version:") && version.empty()) version = trim(line.substr(8));
  }
  return {name, version};
}

std::vector<std::string> parse_record(const std::string& text) {
  std::vector<std::string> paths;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::string path;
    if (line.front() == '"') {  // a quoted field: "" is a quote
      for (size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            path += '"';
            ++i;
          } else {
            break;
          }
        } else {
          path += line[i];
        }
      }
    } else {
      path = line.substr(0, line.find(','));
    }
    if (!path.empty()) paths.push_back(std::move(path));
  }
  return paths;
}

void read_declared_cuda(Package& p) {
  static const std::regex local(R"(\+cu(\d{2,3}))");
  static const std::regex name_suffix(R"(-cu(?:da)?(\d{2})x?(?:-|$))");  // nvidia-cudnn-cu13, jax-cuda13-plugin
  std::smatch m;
  if (std::regex_search(p.version, m, local)) {
    const std::string digits = m[1];
    p.declared_cuda_major = std::stoi(digits.substr(0, digits.size() - 1));
    p.declared_from = "+cu" + digits;
  } else if (std::regex_search(p.name, m, name_suffix)) {
    p.declared_cuda_major = std::stoi(m[1]);
    p.declared_from = m.str(0).back() == '-' ? m.str(0).substr(0, m.length(0) - 1) : m.str(0);
  }
}

std::optional<CudaSource> framework_cuda_of(const std::vector<Distribution>& dists) {
  static const std::regex torch_label(R"(\+cu(\d{2})(\d)$)");            // 2.11.0+cu130
  static const std::regex runtime_version(R"(^(\d{2})\.(\d+)(\.|$))");   // nvidia-cuda-runtime 13.0.96
  std::optional<CudaSource> runtime;
  for (const auto& d : dists) {
    const Package& p = d.package;
    std::smatch m;
    if (p.name == "torch" && std::regex_search(p.version, m, torch_label)) {
      return CudaSource{arch::CudaVersion::from(std::stoi(m[1]), std::stoi(m[2])), "torch " + p.version};
    }
    if ((p.name == "nvidia-cuda-runtime" || p.name.starts_with("nvidia-cuda-runtime-cu")) &&
        std::regex_search(p.version, m, runtime_version) && std::stoi(m[2]) <= 9) {
      runtime = CudaSource{arch::CudaVersion::from(std::stoi(m[1]), std::stoi(m[2])), p.name + " " + p.version};
    }
  }
  return runtime;
}

void attribute(Inventory& inv, const std::vector<Distribution>& dists) {
  inv.framework_cuda = framework_cuda_of(dists);
  std::map<std::string, size_t> owner;  // normalised key -> index into dists
  for (size_t d = 0; d < dists.size(); ++d) {
    for (const auto& f : dists[d].files) {
      const std::string key = scoped(dists[d].source, dists[d].root.empty() ? f : dists[d].root + "/" + f);
      owner.emplace(key, d);
    }
  }
  std::map<std::string, Package> by_name;  // "name\nwhere" -> package, ordered by name
  for (size_t i = 0; i < inv.files.size(); ++i) {
    const auto& file = inv.files[i];
    Package p;
    if (auto it = owner.find(scoped(file.source, file.key)); it != owner.end()) {
      p = dists[it->second].package;
      p.files.clear();
    } else {
      // Outside every distribution: each file stands for itself (a library in /usr/lib, an
      // extension dropped into custom_nodes), named by its file and placed by its directory.
      // A member of an AOTInductor package ("dir/model.pt2!data/...") belongs to the package file.
      const size_t member = file.key.find(".pt2!");
      const std::filesystem::path path(member == std::string::npos ? file.key : file.key.substr(0, member + 4));
      p.name = path.filename().string();
      // A directory's files have absolute keys; an archive's are inside it.
      p.where = path.is_absolute() ? path.parent_path().generic_string()
                                   : file.source + "!" + path.parent_path().generic_string();
      p.origin = Package::Origin::Unattributed;
    }
    auto [it, inserted] = by_name.try_emplace(p.name + "\n" + p.where, std::move(p));
    it->second.files.push_back(i);
  }
  inv.packages.clear();
  for (auto& [key, p] : by_name) inv.packages.push_back(std::move(p));
  // A declared arch list belongs to the distribution that lists its file (torch for
  // libtorch_python.so); a file outside every distribution declares nothing we can attribute.
  for (const auto& decl : inv.declarations) {
    const auto it = owner.find(scoped(decl.source, decl.key));
    if (it == owner.end()) continue;
    const Package& owner_package = dists[it->second].package;
    for (auto& p : inv.packages) {
      if (p.name == owner_package.name && p.where == owner_package.where) {
        p.declared_arch_list = decl.targets;
        p.declared_arch_list_from = decl.path;
      }
    }
  }
}

}  // namespace archbench::stack
