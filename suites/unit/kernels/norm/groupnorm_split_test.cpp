// How the split GroupNorm cuts a sync unit into chunks (kernels/norm/groupnorm.cu): every item in
// exactly one non-empty chunk, no chunk larger than a block holds, never more blocks than fit on
// the device at once (the blocks of a unit wait for each other).
#include <gtest/gtest.h>

#include <optional>

#include "kernels/norm/norm_kernels.hpp"

namespace archbench::kernels::norm {
namespace {

void expect_valid(const std::optional<SplitChunks>& s, long long units, long long items, long long per_block,
                  long long resident) {
  ASSERT_TRUE(s.has_value());
  EXPECT_GE(static_cast<long long>(s->chunks) * s->chunk_items, items) << "every item covered";
  EXPECT_LT(static_cast<long long>(s->chunks - 1) * s->chunk_items, items) << "no empty chunk";
  EXPECT_LE(s->chunk_items, per_block) << "a chunk fits one block";
  EXPECT_LE(units * s->chunks, resident) << "all blocks resident at once";
}

TEST(GroupNormSplit, H200Nchw) {
  // 64 groups of 40960 fp32 = 10240 packs; 256 threads x 8 packs per block; 2 x 132 SMs wanted.
  const auto f32 = split_chunks(64, 10240, 2048, 5, 3 * 132);
  expect_valid(f32, 64, 10240, 2048, 3 * 132);
  EXPECT_EQ(f32->chunks, 5);
  EXPECT_EQ(f32->chunk_items, 2048);
  // fp16: 5120 packs per group; the minimum would be 3 chunks, the chip wants 5.
  const auto f16 = split_chunks(64, 5120, 2048, 5, 4 * 132);
  expect_valid(f16, 64, 5120, 2048, 4 * 132);
  EXPECT_EQ(f16->chunks, 5);
  EXPECT_EQ(f16->chunk_items, 1024);
}

TEST(GroupNormSplit, H200NhwcCapsAtTheResidentBlocks) {
  // 2 samples of 4096 pixels, 96 pixels per block, 66 wanted per sample, one block per SM resident.
  const auto s = split_chunks(2, 4096, 96, 66, 132);
  expect_valid(s, 2, 4096, 96, 132);
  EXPECT_EQ(s->chunks, 66);
  EXPECT_EQ(s->chunk_items, 63);
}

TEST(GroupNormSplit, DropsChunksThatWouldBeEmpty) {
  // 9 items wanted in 4 chunks: chunks of 3 cover them in 3.
  const auto s = split_chunks(1, 9, 3, 4, 100);
  expect_valid(s, 1, 9, 3, 100);
  EXPECT_EQ(s->chunks, 3);
  EXPECT_EQ(s->chunk_items, 3);
}

TEST(GroupNormSplit, RefusesWhatCannotBeResident) {
  EXPECT_FALSE(split_chunks(64, 10240, 2048, 5, 4 * 64 - 1).has_value());  // needs 5 per group, 3.98 fit
  EXPECT_FALSE(split_chunks(2, 4096, 32, 1, 200).has_value());            // 128 per sample, 100 fit
  EXPECT_FALSE(split_chunks(0, 10, 1, 1, 10).has_value());
  EXPECT_FALSE(split_chunks(1, 0, 1, 1, 10).has_value());
}

TEST(GroupNormSplit, ManyShapesStayValid) {
  for (long long units : {1, 2, 7, 64}) {
    for (long long items : {1, 5, 63, 64, 65, 1000, 40960}) {
      for (long long per_block : {1, 8, 96, 2048}) {
        for (long long wanted : {1, 3, 66}) {
          const long long resident = 4 * 132;
          const auto s = split_chunks(units, items, per_block, wanted, resident);
          const long long min_chunks = (items + per_block - 1) / per_block;
          if (units * min_chunks > resident) {
            EXPECT_FALSE(s.has_value());
          } else {
            expect_valid(s, units, items, per_block, resident);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace archbench::kernels::norm
