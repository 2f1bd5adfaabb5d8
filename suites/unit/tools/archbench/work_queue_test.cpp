// The parallel check phase's queue: each index goes to exactly one taker, across threads with
// descriptors of their own (as separate worker processes have), and a damaged queue is a clear error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tools/archbench/work_queue.hpp"

namespace archbench::cli {
namespace {

class WorkQueue : public testing::Test {
 protected:
  std::string path_ =
      (std::filesystem::temp_directory_path() / ("archbench-work-queue-" + std::to_string(getpid()))).string();
  void TearDown() override { std::filesystem::remove(path_); }
};

TEST_F(WorkQueue, HandsOutEachIndexOnceThenNothing) {
  create_work_queue(path_);
  EXPECT_EQ(take_from_work_queue(path_, 3), 0u);
  EXPECT_EQ(take_from_work_queue(path_, 3), 1u);
  EXPECT_EQ(take_from_work_queue(path_, 3), 2u);
  EXPECT_EQ(take_from_work_queue(path_, 3), std::nullopt);
  EXPECT_EQ(take_from_work_queue(path_, 3), std::nullopt);
  create_work_queue(path_);  // reset
  EXPECT_EQ(take_from_work_queue(path_, 3), 0u);
  EXPECT_EQ(take_from_work_queue(path_, 0), std::nullopt);
}

TEST_F(WorkQueue, ConcurrentTakersShareTheIndicesWithoutRepeats) {
  create_work_queue(path_);
  constexpr size_t kCount = 2000;
  constexpr int kTakers = 8;
  std::vector<std::vector<size_t>> taken(kTakers);
  {
    std::vector<std::jthread> takers;
    for (int t = 0; t < kTakers; ++t) {
      takers.emplace_back([&, t] {
        while (const auto i = take_from_work_queue(path_, kCount)) taken[static_cast<size_t>(t)].push_back(*i);
      });
    }
  }
  std::vector<size_t> all;
  for (const auto& t : taken) all.insert(all.end(), t.begin(), t.end());
  std::ranges::sort(all);
  ASSERT_EQ(all.size(), kCount);
  for (size_t i = 0; i < kCount; ++i) ASSERT_EQ(all[i], i);
}

TEST_F(WorkQueue, MissingOrDamagedQueueIsAClearError) {
  try {
    (void)take_from_work_queue(path_, 3);
    FAIL() << "a missing queue was taken from";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path_), std::string::npos) << e.what();
  }
  for (const char* text : {"", "seven\n", "3x\n", "-1\n"}) {
    std::ofstream(path_) << text;
    try {
      (void)take_from_work_queue(path_, 10);
      FAIL() << "took from a queue holding \"" << text << "\"";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("not the index of the next operator"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace archbench::cli
