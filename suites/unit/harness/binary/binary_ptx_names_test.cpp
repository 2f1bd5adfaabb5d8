// The PTX `.entry` scan and the demangler fallback on hand-written text (harness/binary internals).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/binary/kernel_names.hpp"

namespace archbench {
namespace {

using binary::detail::demangle;
using binary::detail::ptx_kernel_names;

TEST(BinaryPtxNames, EntryDirectives) {
  const std::string ptx =
      ".version 9.0\n.target sm_80\n.address_size 64\n"
      "\t// .globl\tplain_c\n"
      ".visible .entry plain_c(\n\t.param .u64 p\n)\n{\n\tret;\n}\n"
      ".weak .entry _Z5scaleIfEvPT_(\n)\n"
      "  .entry   spaced (\n)\n"
      ".entry noparams()\n"
      ".extern .entry declared_only(\n)\n"
      "// .entry commented(\n"
      ".func device_fn(\n)\n"
      ".visible .entryish notakernel(\n";
  EXPECT_EQ(ptx_kernel_names(ptx), (std::vector<std::string>{"plain_c", "_Z5scaleIfEvPT_", "spaced", "noparams"}));
}

TEST(BinaryPtxNames, StopsAtNulPadding) {
  std::string ptx = ".visible .entry a(\n)\n";
  ptx += std::string(8, '\0');
  ptx += ".visible .entry hidden(\n";
  EXPECT_EQ(ptx_kernel_names(ptx), std::vector<std::string>{"a"});
  EXPECT_TRUE(ptx_kernel_names(std::string_view{}).empty());
  EXPECT_TRUE(ptx_kernel_names(".entry").empty());
  EXPECT_TRUE(ptx_kernel_names(".entry ").empty());
}

TEST(BinaryPtxNames, Demangle) {
  EXPECT_EQ(demangle("_Z5scaleIfEvPT_"), "void scale<float>(float*)");
  EXPECT_EQ(demangle("plain_c"), "plain_c");
  EXPECT_EQ(demangle("i"), "i");  // a C name, not the type `int`
  EXPECT_EQ(demangle("_Zbroken"), "_Zbroken");
}

}  // namespace
}  // namespace archbench
