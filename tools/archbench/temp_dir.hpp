// A fresh temporary directory, removed with everything in it when the object goes: the workers'
// result files, the forced-JIT pass's empty JIT cache.
#pragma once

#include <string>

namespace archbench::cli {

class TempDir {
 public:
  // Creates $TMPDIR/PREFIX.XXXXXX; throws std::runtime_error "cannot create a WHAT" if it cannot.
  TempDir(const std::string& prefix, const std::string& what);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  // The path of `name` inside the directory.
  [[nodiscard]] std::string file(const std::string& name) const;

 private:
  std::string path_;
};

}  // namespace archbench::cli
