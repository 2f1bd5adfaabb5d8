#include <gtest/gtest.h>

#include "harness/ops/id_filter.hpp"

namespace archbench {
namespace {

TEST(IdFilter, OneGlob) {
  EXPECT_TRUE(id_matches("*", "matmul/gemm_tc/f16/M1_N2_K3"));
  EXPECT_TRUE(id_matches("matmul/*", "matmul/gemm_tc/f16/M1_N2_K3"));
  EXPECT_FALSE(id_matches("norm/*", "matmul/gemm_tc/f16/M1_N2_K3"));
  EXPECT_TRUE(id_matches("*/f16/*", "matmul/gemm_tc/f16/M1_N2_K3"));
  EXPECT_FALSE(id_matches("*/f16/*", "matmul/gemm_tc/bf16/M1_N2_K3"));
}

TEST(IdFilter, CommaSeparatedGlobsMatchAny) {
  EXPECT_TRUE(id_matches("norm/*,matmul/gemm_tc/*", "matmul/gemm_tc/f16/M1_N2_K3"));
  EXPECT_TRUE(id_matches("norm/*,matmul/gemm_tc/*", "norm/rmsnorm/f32/S"));
  EXPECT_FALSE(id_matches("norm/*,matmul/gemm_tc/*", "conv/conv_tc/f16/S"));
}

TEST(IdFilter, EmptyPartsMatchNothing) {
  EXPECT_FALSE(id_matches("", "norm/rmsnorm/f32/S"));
  EXPECT_FALSE(id_matches(",", "norm/rmsnorm/f32/S"));
  EXPECT_TRUE(id_matches(",norm/*,", "norm/rmsnorm/f32/S"));
}

}  // namespace
}  // namespace archbench
