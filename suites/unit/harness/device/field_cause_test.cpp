// The root causes' stable ids: one table in the code, the same ids in the same order on
// docs/reference/field-causes.md, and every id the page says archbench reports is one the code has.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/device/field_cause.hpp"

namespace archbench::doctor {
namespace {

// ARCHBENCH_TEST_FIXTURES is <source>/suites/fixtures.
const std::string kPage = std::string(ARCHBENCH_TEST_FIXTURES) + "/../../docs/reference/field-causes.md";

// The backquoted ids in the first cell of each row of the table under `heading`.
std::vector<std::string> table_ids(const std::string& heading) {
  std::ifstream in(kPage);
  EXPECT_TRUE(in) << "cannot read " << kPage;
  std::vector<std::string> ids;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) inside = line == "## " + heading;
    if (!inside || !line.starts_with("| `")) continue;
    const auto end = line.find('`', 3);
    ids.push_back(line.substr(3, end - 3));
  }
  return ids;
}

TEST(FieldCause, IdsAreKebabCaseAndRoundTrip) {
  ASSERT_EQ(all_field_causes().size(), 20u);
  for (const FieldCause c : all_field_causes()) {
    const std::string id(to_string(c));
    for (const char ch : id) EXPECT_TRUE(std::islower(static_cast<unsigned char>(ch)) || ch == '-') << id;
    EXPECT_EQ(parse_field_cause(id), c) << id;
  }
  EXPECT_EQ(to_string(FieldCause::NoDriverInContainer), "no-driver-in-container");
  EXPECT_FALSE(parse_field_cause("11").has_value());
  EXPECT_FALSE(parse_field_cause("No-Driver-In-Container").has_value());
}

TEST(FieldCause, ThePageListsExactlyTheCodesIdsInOrder) {
  std::vector<std::string> code;
  for (const FieldCause c : all_field_causes()) code.emplace_back(to_string(c));
  EXPECT_EQ(table_ids("The causes"), code) << kPage << ", section \"The causes\"";
  const auto reported = table_ids("Where archbench reports them");
  EXPECT_FALSE(reported.empty());
  for (const auto& id : reported) EXPECT_TRUE(parse_field_cause(id).has_value()) << id << " is not an id of the code";
}

}  // namespace
}  // namespace archbench::doctor
