// Enum name tables: the helpers on a table of their own, then every table archbench has: each
// value's name parses back to it, no two values share a name, and unknown names are rejected.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>
#include <string_view>

#include "harness/arch/compat.hpp"
#include "harness/baseline/compare.hpp"
#include "harness/binary/binary_file.hpp"
#include "harness/binary/device_coverage.hpp"
#include "harness/doctor/checklist.hpp"
#include "harness/ops/dtype.hpp"
#include "harness/ops/operator.hpp"
#include "harness/result/image_verdict.hpp"
#include "harness/result/launch_mode.hpp"
#include "harness/result/phase.hpp"
#include "harness/result/stop_reason.hpp"
#include "harness/result/worker_fault.hpp"
#include "harness/run/timer.hpp"
#include "harness/stack/readers.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench {
namespace {

enum class Fruit { Apple, Pear, Plum };
constexpr auto kFruits = enum_names<Fruit>({{Fruit::Apple, "apple"}, {Fruit::Pear, "pear"}, {Fruit::Plum, "plum"}});

TEST(EnumNames, NamesByValueParsesByNameAndListsEveryValue) {
  static_assert(name_of(kFruits, Fruit::Pear) == "pear");
  static_assert(parse_name(kFruits, "plum") == Fruit::Plum);
  EXPECT_EQ(values_of(kFruits), (std::array{Fruit::Apple, Fruit::Pear, Fruit::Plum}));
  EXPECT_EQ(name_of(kFruits, static_cast<Fruit>(7)), "?") << "a value no enumerator has";
  for (std::string_view bad : {"", "Apple", "pear ", "fig"}) EXPECT_FALSE(parse_name(kFruits, bad)) << bad;
}

// Round trip, distinct names, unknown names rejected. `label` names the table in failures.
template <typename Enum, size_t N>
void expect_names_round_trip(const EnumNames<Enum, N>& table, const char* label) {
  std::set<std::string_view> names;
  for (Enum v : values_of(table)) {
    const std::string_view name = name_of(table, v);
    EXPECT_EQ(parse_name(table, name), v) << label << " '" << name << "'";
    EXPECT_TRUE(names.insert(name).second) << label << ": two values named '" << name << "'";
  }
  for (std::string_view bad : {"bogus", "?", " sass", "Faster"}) {
    EXPECT_FALSE(parse_name(table, bad)) << label << " '" << bad << "'";
  }
}

TEST(EnumNames, EveryTableRoundTripsItsNames) {
  expect_names_round_trip(kImageOutcomes, "ImageOutcome");
  expect_names_round_trip(binary::kCompressions, "Compression");
  expect_names_round_trip(binary::kFileFormats, "FileFormat");
  expect_names_round_trip(kImageOutcomes, "ImageOutcome");
  expect_names_round_trip(kDTypes, "DType");
  expect_names_round_trip(kImpls, "Impl");
  expect_names_round_trip(kImageOutcomes, "ImageOutcome");
  expect_names_round_trip(kLaunchModes, "LaunchMode");
  expect_names_round_trip(kStopReasons, "StopReason");
  expect_names_round_trip(kWorkerFaults, "WorkerFault");
  expect_names_round_trip(kPhases, "Phase");
  expect_names_round_trip(kCudaGraphModes, "CudaGraphMode");
  expect_names_round_trip(kChanges, "Change");
  expect_names_round_trip(stack::kSourceKinds, "SourceKind");
  expect_names_round_trip(doctor::kOutcomes, "Outcome");
}

// The names the run JSON and the CLI have always used; a table entry renamed would break stored
// files and scripts.
TEST(EnumNames, KeepTheirWrittenNames) {
  EXPECT_EQ(outcome_name(ImageOutcome::NeedsNewerDriver), "needs-newer-driver");  // "ptx-too-new" until 2026-12-06, still read
  EXPECT_EQ(stop_reason_name(StopReason::NoiseTarget), "noise target");
  EXPECT_EQ(worker_fault_name(WorkerFault::None), "");
  EXPECT_EQ(launch_mode_name(LaunchMode::Blocking), "blocking");
  EXPECT_EQ(change_name(Change::CorrectnessRegressed), "correctness-regressed");
  EXPECT_EQ(outcome_name(ImageOutcome::NoDeviceCode), "no-device-code");
  EXPECT_EQ(binary::format_name(binary::FileFormat::Elf), "ELF");
  EXPECT_EQ(stack::source_kind_name(stack::SourceKind::Tree), "directory");
  EXPECT_EQ(doctor::outcome_name(doctor::Outcome::Skip), "SKIP");
}

}  // namespace
}  // namespace archbench
