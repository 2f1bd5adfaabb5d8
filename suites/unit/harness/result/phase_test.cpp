// The phase as a type: its names round-trip, and the run JSON's phase_seconds is keyed by them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "harness/result/phase.hpp"
#include "harness/result/result_json.hpp"

namespace archbench {
namespace {

TEST(Phase, NamesRoundTrip) {
  for (Phase p : values_of(kPhases)) EXPECT_EQ(parse_name(kPhases, phase_name(p)), p);
  EXPECT_EQ(phase_name(Phase::Check), "check");
  EXPECT_EQ(phase_name(Phase::Time), "time");
  EXPECT_FALSE(parse_name(kPhases, "timing").has_value());
  EXPECT_FALSE(parse_name(kPhases, "").has_value());
}

TEST(ResultJson, PhaseSecondsAreKeyedByPhaseName) {
  OperatorResult r;
  r.id = "matmul/gemm_simt/f32/M8_N8_K8";
  r.phase_seconds = {{Phase::Check, 0.5}, {Phase::Time, 1.25}};
  const nlohmann::json j = r;
  EXPECT_EQ(j.at("phase_seconds"), (nlohmann::json{{"check", 0.5}, {"time", 1.25}}));
  EXPECT_EQ(j.get<OperatorResult>().phase_seconds, r.phase_seconds);

  nlohmann::json older = j;
  older.erase("phase_seconds");  // written before phases were timed: none
  EXPECT_TRUE(older.get<OperatorResult>().phase_seconds.empty());

  nlohmann::json unknown = j;
  unknown["phase_seconds"]["warmup"] = 2.0;
  try {
    (void)unknown.get<OperatorResult>();
    ADD_FAILURE() << "accepted the phase 'warmup'";
  } catch (const nlohmann::json::exception& e) {
    EXPECT_NE(std::string(e.what()).find("phase 'warmup'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace archbench
