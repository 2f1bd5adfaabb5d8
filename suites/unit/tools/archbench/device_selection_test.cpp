// run --device: an index, a list (nvbench -d, nvidia-smi -i) or all, in CUDA's numbering.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/archbench/device_selection.hpp"
#include "tools/archbench/selection.hpp"

namespace archbench::cli {
namespace {

TEST(DeviceSelection, IndexListAndAll) {
  EXPECT_EQ(parse_device_selection("0", 2), (std::vector<int>{0}));
  EXPECT_EQ(parse_device_selection("1", 2), (std::vector<int>{1}));
  EXPECT_EQ(parse_device_selection("0,1", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_device_selection("1,0", 2), (std::vector<int>{1, 0})) << "in the order given";
  EXPECT_EQ(parse_device_selection(" 0 , 2 ", 4), (std::vector<int>{0, 2}));
  EXPECT_EQ(parse_device_selection("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_device_selection("ALL", 1), (std::vector<int>{0}));
  EXPECT_TRUE(parse_device_selection("all", 0).empty());
  // The syntax alone, before CUDA starts: any index, a bad word still refused.
  EXPECT_EQ(parse_device_selection("7", -1), (std::vector<int>{7}));
  EXPECT_THROW((void)parse_device_selection("RTX 5090", -1), UsageError);
}

TEST(DeviceSelection, RejectsWhatItCannotRun) {
  struct Case {
    const char* spec;
    const char* says;
  };
  for (const Case& c : {Case{"2", "device 2 is not visible"}, Case{"0,0", "device 0 is listed twice"},
                        Case{"0,", "an empty item"}, Case{"", "an empty item"}, Case{"-1", "'-1' is not a device index"},
                        Case{"gpu0", "'gpu0' is not a device index"}, Case{"0;1", "'0;1' is not a device index"},
                        Case{"1.5", "'1.5' is not a device index"}, Case{"99999999999", "not a device index"}}) {
    try {
      (void)parse_device_selection(c.spec, 2);
      ADD_FAILURE() << "accepted '" << c.spec << "'";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(c.says), std::string::npos) << c.spec << ": " << what;
      EXPECT_NE(what.find("(visible: 0 to 1)"), std::string::npos) << what;
    }
  }
  try {
    (void)parse_device_selection("0", 0);
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("visible: none"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace archbench::cli
