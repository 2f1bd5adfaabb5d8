// The order of preference names real operators: a path renamed or dropped in the registry would
// otherwise leave every choice "absent" without a word.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "harness/ops/registry.hpp"
#include "kernels/path_preference.hpp"

namespace archbench {
namespace {

TEST(PathPreference, EveryPathAndTwinIsRegisteredAtEachShapeOfTheProblem) {
  for (const auto& pref : kernels::path_preferences()) {
    ASSERT_FALSE(pref.paths.empty()) << pref.family;
    for (const DType d : pref.dtypes) {
      const std::string dtype(dtype_name(d));
      // The shapes of the problem: those of its first path in the problem's own dtype.
      std::set<std::string> shapes;
      for (const auto* op : registry().select(pref.family + "/" + pref.paths[0].name + "/" + dtype + "/*", {})) {
        shapes.insert(op->spec().shape);
      }
      ASSERT_FALSE(shapes.empty()) << pref.family << " " << dtype;
      for (const auto& path : pref.paths) {
        const std::string glob = pref.family + "/" + path.name + "/" + std::string(dtype_name(path.dtype.value_or(d))) + "/*";
        EXPECT_FALSE(registry().select(glob, {}).empty()) << glob;
      }
      for (const auto& shape : shapes) {
        const std::string twin = pref.family + "/" + pref.twin + "/" + dtype + "/" + shape;
        EXPECT_EQ(registry().select(twin, {}).size(), 1u) << twin;
      }
    }
  }
}

}  // namespace
}  // namespace archbench
