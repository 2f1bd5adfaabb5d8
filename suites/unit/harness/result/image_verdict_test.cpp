// The image verdict: its names (the run JSON's "image.status"), the prediction statuses it takes
// over from the compatibility engine, and the order `archbench compare` ranks it in.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "harness/result/image_verdict.hpp"
#include "harness/result/result_json.hpp"
#include "harness/run/image_probe.hpp"

namespace archbench {
namespace {

TEST(ImageOutcome, EveryVerdictRoundTripsThroughItsName) {
  std::set<std::string_view> names;
  for (ImageOutcome v : values_of(kImageOutcomes)) {
    EXPECT_EQ(parse_name(kImageOutcomes, outcome_name(v)), v) << outcome_name(v);
    EXPECT_TRUE(names.insert(outcome_name(v)).second) << "two verdicts named '" << outcome_name(v) << "'";
    ImageResult image;
    image.status = v;
    EXPECT_EQ(nlohmann::json(image).get<ImageResult>().status, v) << outcome_name(v);
  }
  // Never probed: the operator's worker ended first. Written as "" since the first run files.
  EXPECT_EQ(outcome_name(ImageOutcome::NotProbed), "");
  EXPECT_EQ(ImageResult{}.status, ImageOutcome::NotProbed);
  // "error" and "wrong" are operator verdicts (OperatorVerdict), never image verdicts.
  for (const char* other : {"error", "wrong", "SASS", "ptx_jit", " sass"}) {
    EXPECT_FALSE(parse_name(kImageOutcomes, other).has_value()) << other;
  }
}

// One vocabulary: the names are the JSON's and text's, and a stored file's older spellings still read.
TEST(ImageOutcome, OneNameEachAndTheOlderSpellingsRead) {
  EXPECT_EQ(outcome_name(ImageOutcome::Sass), "sass");
  EXPECT_EQ(outcome_name(ImageOutcome::Missing), "missing");
  EXPECT_EQ(outcome_name(ImageOutcome::NeedsNewerDriver), "needs-newer-driver");
  EXPECT_EQ(parse_name(kImageOutcomeAliases, "ptx-too-new"), ImageOutcome::NeedsNewerDriver);
  EXPECT_EQ(parse_name(kImageOutcomeAliases, "native"), ImageOutcome::Sass);
  EXPECT_EQ(parse_name(kImageOutcomeAliases, "no-image"), ImageOutcome::Missing);
  ImageResult old;
  old.status = ImageOutcome::NeedsNewerDriver;
  nlohmann::json j = old;
  j["status"] = "ptx-too-new";  // a run file of before 2026-12-06
  EXPECT_EQ(j.get<ImageResult>().status, ImageOutcome::NeedsNewerDriver);
  // Worst last: the kernel's worst image is its operator's, a package's worst file its verdict.
  EXPECT_LT(severity(ImageOutcome::Sass), severity(ImageOutcome::PtxJit));
  EXPECT_LT(severity(ImageOutcome::PtxJit), severity(ImageOutcome::Partial));
  EXPECT_LT(severity(ImageOutcome::JitDisabled), severity(ImageOutcome::NeedsNewerDriver));
  EXPECT_LT(severity(ImageOutcome::NeedsNewerDriver), severity(ImageOutcome::Missing));
}

TEST(ImageOutcome, OnlyABuildOrDriverGapLacksALoadableImage) {
  for (ImageOutcome v : values_of(kImageOutcomes)) {
    const bool gap = v == ImageOutcome::Missing || v == ImageOutcome::NeedsNewerDriver || v == ImageOutcome::JitDisabled;
    EXPECT_EQ(lacks_loadable_image(v), gap) << outcome_name(v);
  }
}

// Compare's order: SASS, a library and "unsupported" (fixed by the device) < JIT < no image.
TEST(ImageOutcome, CompareRanksSassOverJitOverNoImage) {
  using enum ImageOutcome;
  const std::set<ImageOutcome> runs{Sass, Library, Unsupported}, jit{PtxJit},
      none{NotProbed, Missing, NeedsNewerDriver, JitDisabled, LibraryError, Partial, NoDeviceCode};
  auto rank = [&](ImageOutcome v) { return runs.contains(v) ? 0 : jit.contains(v) ? 1 : 2; };
  ASSERT_EQ(runs.size() + jit.size() + none.size(), kImageOutcomes.size());
  for (ImageOutcome before : values_of(kImageOutcomes)) {
    for (ImageOutcome now : values_of(kImageOutcomes)) {
      EXPECT_EQ(image_regressed(before, now), rank(now) > rank(before))
          << "'" << outcome_name(before) << "' -> '" << outcome_name(now) << "'";
    }
  }
  EXPECT_TRUE(image_regressed(Sass, PtxJit));
  EXPECT_TRUE(image_regressed(PtxJit, Missing));
  EXPECT_TRUE(image_regressed(Library, LibraryError));
  EXPECT_FALSE(image_regressed(Missing, NeedsNewerDriver)) << "one way of not running is no worse than another";
  EXPECT_FALSE(image_regressed(Sass, Library));
  EXPECT_FALSE(image_regressed(PtxJit, Sass));
}

TEST(ResultJson, AnUnknownImageOutcomeIsRejectedNamingFieldAndValue) {
  ImageResult image;
  image.status = ImageOutcome::Sass;
  nlohmann::json j = image;
  j["status"] = "error";
  try {
    (void)j.get<ImageResult>();
    ADD_FAILURE() << "accepted image.status 'error'";
  } catch (const nlohmann::json::exception& e) {
    EXPECT_NE(std::string(e.what()).find("image.status is 'error', not one of '', 'sass', 'ptx-jit'"),
              std::string::npos)
        << e.what();
  }
  j["status"] = 3;
  EXPECT_THROW((void)j.get<ImageResult>(), nlohmann::json::exception);
}

}  // namespace
}  // namespace archbench
