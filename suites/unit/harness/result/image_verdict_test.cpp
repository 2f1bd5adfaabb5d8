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

TEST(ImageVerdict, EveryVerdictRoundTripsThroughItsName) {
  std::set<std::string_view> names;
  for (ImageVerdict v : values_of(kImageVerdicts)) {
    EXPECT_EQ(parse_name(kImageVerdicts, image_verdict_name(v)), v) << image_verdict_name(v);
    EXPECT_TRUE(names.insert(image_verdict_name(v)).second) << "two verdicts named '" << image_verdict_name(v) << "'";
    ImageResult image;
    image.status = v;
    EXPECT_EQ(nlohmann::json(image).get<ImageResult>().status, v) << image_verdict_name(v);
  }
  // Never probed: the operator's worker ended first. Written as "" since the first run files.
  EXPECT_EQ(image_verdict_name(ImageVerdict::NotProbed), "");
  EXPECT_EQ(ImageResult{}.status, ImageVerdict::NotProbed);
  // "error" and "wrong" are operator verdicts (OperatorVerdict), never image verdicts.
  for (const char* other : {"error", "wrong", "SASS", "ptx_jit", " sass"}) {
    EXPECT_FALSE(parse_name(kImageVerdicts, other).has_value()) << other;
  }
}

TEST(ImageVerdict, ThePredictionStatusesKeepTheirNames) {
  for (arch::ImageStatus s : values_of(arch::kImageStatuses)) {
    EXPECT_EQ(image_verdict_name(image_verdict_of(s)), arch::status_name(s));
  }
}

TEST(ImageVerdict, OnlyABuildOrDriverGapLacksALoadableImage) {
  for (ImageVerdict v : values_of(kImageVerdicts)) {
    const bool gap = v == ImageVerdict::Missing || v == ImageVerdict::PtxTooNew || v == ImageVerdict::JitDisabled;
    EXPECT_EQ(lacks_loadable_image(v), gap) << image_verdict_name(v);
  }
}

// Compare's order: SASS, a library and "unsupported" (fixed by the device) < JIT < no image.
TEST(ImageVerdict, CompareRanksSassOverJitOverNoImage) {
  using enum ImageVerdict;
  const std::set<ImageVerdict> runs{Sass, Library, Unsupported}, jit{PtxJit},
      none{NotProbed, Missing, PtxTooNew, JitDisabled, LibraryError};
  auto rank = [&](ImageVerdict v) { return runs.contains(v) ? 0 : jit.contains(v) ? 1 : 2; };
  ASSERT_EQ(runs.size() + jit.size() + none.size(), kImageVerdicts.size());
  for (ImageVerdict before : values_of(kImageVerdicts)) {
    for (ImageVerdict now : values_of(kImageVerdicts)) {
      EXPECT_EQ(image_regressed(before, now), rank(now) > rank(before))
          << "'" << image_verdict_name(before) << "' -> '" << image_verdict_name(now) << "'";
    }
  }
  EXPECT_TRUE(image_regressed(Sass, PtxJit));
  EXPECT_TRUE(image_regressed(PtxJit, Missing));
  EXPECT_TRUE(image_regressed(Library, LibraryError));
  EXPECT_FALSE(image_regressed(Missing, PtxTooNew)) << "one way of not running is no worse than another";
  EXPECT_FALSE(image_regressed(Sass, Library));
  EXPECT_FALSE(image_regressed(PtxJit, Sass));
}

TEST(ResultJson, AnUnknownImageStatusIsRejectedNamingFieldAndValue) {
  ImageResult image;
  image.status = ImageVerdict::Sass;
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
