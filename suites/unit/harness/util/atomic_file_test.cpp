#include <string>
#include <stdexcept>
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iterator>
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

// kill -9 in the middle of writes never leaves a torn file: readers see one whole version.
TEST(AtomicFile, KillDuringWriteLeavesAWholeFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("archbench_kill_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "baseline.json").string();
  const size_t size = 4u << 20;
  write_file_atomically(path, std::string(size, 'A'));
  for (int round = 0; round < 20; ++round) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // the writer: alternate two full versions until killed
      for (int i = 0;; ++i) write_file_atomically(path, std::string(size, i % 2 ? 'A' : 'B'));
    }
    ::usleep(static_cast<useconds_t>(2000 + 3000 * round));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    std::ifstream f(path, std::ios::binary);
    std::string content((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    ASSERT_EQ(content.size(), size) << "round " << round;
    EXPECT_TRUE(content.find_first_not_of(content[0]) == std::string::npos) << "torn file in round " << round;
  }
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
