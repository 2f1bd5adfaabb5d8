#include <string>
#include <stdexcept>
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iterator>
#include <fstream>
#include <sstream>
#include <thread>

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

// `--json /dev/null` must not replace the device node (it did: as root, /dev/null became a regular file).
TEST(AtomicFile, ADeviceOrPipeIsWrittenAndStaysWhatItWas) {
  write_file_atomically("/dev/null", "nothing");
  struct stat st{};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  const auto dir = std::filesystem::temp_directory_path() / ("archbench_fifo_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto fifo = (dir / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] {
    std::ifstream in(fifo);
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  write_file_atomically(fifo, "through the pipe");
  reader.join();
  EXPECT_EQ(got, "through the pipe");
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, ThroughASymbolicLinkTheTargetIsReplacedAndTheLinkKept) {
  const auto dir = std::filesystem::temp_directory_path() / ("archbench_link_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  write_file_atomically((dir / "real.json").string(), "old");
  std::filesystem::create_symlink("real.json", dir / "link.json");
  write_file_atomically((dir / "link.json").string(), "new");
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "link.json"));
  std::ifstream f(dir / "real.json");
  std::string content((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "new");
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
