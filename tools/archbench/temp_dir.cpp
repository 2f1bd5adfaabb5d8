#include "tools/archbench/temp_dir.hpp"

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace archbench::cli {

TempDir::TempDir(const std::string& prefix, const std::string& what) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + ".XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("cannot create a " + what);
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::file(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }

}  // namespace archbench::cli
