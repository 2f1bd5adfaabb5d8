#include <string>
#include <stdexcept>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/util/atomic_file.hpp"

namespace archbench {
namespace {

TEST(AtomicFile, ReplacesContentAndLeavesNoTemporaries) {
  const auto dir = std::filesystem::temp_directory_path() / ("archbench_atomic_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "out.json").string();
  write_file_atomically(path, "first");
  write_file_atomically(path, "second");
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  EXPECT_EQ(s.str(), "second");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}), 1);
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, MissingDirectoryIsAClearError) {
  try {
    write_file_atomically("/nonexistent-dir/x.json", "x");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/x.json"), std::string::npos);
  }
}

}  // namespace
}  // namespace archbench
