#include <gtest/gtest.h>

#include "harness/ops/id_filter.hpp"

namespace archbench {
namespace {

// One glob, comma-separated globs (any may match; empty parts match nothing), and kernel names
// that hold commas themselves (matched whole).
struct MatchCase {
  const char* filter;
  const char* id;
  bool matches;
};

class IdFilter : public testing::TestWithParam<MatchCase> {};

TEST_P(IdFilter, Matches) {
  const MatchCase& c = GetParam();
  EXPECT_EQ(id_matches(c.filter, c.id), c.matches) << c.filter << " on " << c.id;
}

INSTANTIATE_TEST_SUITE_P(
    Globs, IdFilter,
    testing::Values(MatchCase{"*", "matmul/gemm_tc/f16/M1_N2_K3", true},
                    MatchCase{"matmul/*", "matmul/gemm_tc/f16/M1_N2_K3", true},
                    MatchCase{"norm/*", "matmul/gemm_tc/f16/M1_N2_K3", false},
                    MatchCase{"*/f16/*", "matmul/gemm_tc/f16/M1_N2_K3", true},
                    MatchCase{"*/f16/*", "matmul/gemm_tc/bf16/M1_N2_K3", false},
                    MatchCase{"norm/*,matmul/gemm_tc/*", "matmul/gemm_tc/f16/M1_N2_K3", true},
                    MatchCase{"norm/*,matmul/gemm_tc/*", "norm/rmsnorm/f32/S", true},
                    MatchCase{"norm/*,matmul/gemm_tc/*", "conv/conv_tc/f16/S", false},
                    MatchCase{"", "norm/rmsnorm/f32/S", false}, MatchCase{",", "norm/rmsnorm/f32/S", false},
                    MatchCase{",norm/*,", "norm/rmsnorm/f32/S", true},
                    MatchCase{"*gemm*,*conv*", "void gemm_kernel<float, 128>(float const*, int)", true},
                    MatchCase{"*conv*", "void conv_simt<half, 3>(half const*)", true}));

const std::vector<std::string> kIds = {"matmul/gemm_tc/f16/M1_N2_K3", "matmul/gemm_simt/f32/M1_N2_K3",
                                       "norm/layernorm/bf16/S"};

TEST(FilterSuggestion, ABareWordIsLookedForInsideNames) {
  EXPECT_EQ(suggest_filter("gemm_tc", kIds), "*gemm_tc*");
  EXPECT_EQ(suggest_filter("layernorm", kIds), "*layernorm*");
}

TEST(FilterSuggestion, AMisspeltPartIsReplacedByTheNearestOne) {
  EXPECT_EQ(suggest_filter("matmul/gemm_tcc/*", kIds), "matmul/gemm_tc/*");
  EXPECT_EQ(suggest_filter("matmull/*", kIds), "matmul/*");
  EXPECT_EQ(suggest_filter("*gemmm*", kIds), "*gemm*");
}

TEST(FilterSuggestion, NothingNearMeansNoSuggestion) {
  EXPECT_EQ(suggest_filter("attention/*", kIds), std::nullopt);
  EXPECT_EQ(suggest_filter("zz", kIds), std::nullopt);
}

TEST(FilterSuggestion, EachGlobOfAListIsRepaired) {
  EXPECT_EQ(suggest_filter("gemm_tc,layernorm", kIds), "*gemm_tc*,*layernorm*");
}

TEST(FilterSuggestion, TheMessageNamesTheFilterTheHintAndWhereToLook) {
  const std::string m = no_match_message("gemm_tc", kIds, "operator", "`archbench list` shows the ids");
  EXPECT_NE(m.find("no operator matches --filter 'gemm_tc'"), std::string::npos) << m;
  EXPECT_NE(m.find("did you mean --filter '*gemm_tc*'"), std::string::npos) << m;
  EXPECT_NE(m.find("archbench list"), std::string::npos) << m;
}

}  // namespace
}  // namespace archbench
