#include <fmt/format.h>

#include <iostream>
#include <string>
#include <vector>

#include "harness/report/text_wrap.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/selection.hpp"

namespace archbench::cli {

int list_command(const ListOptions& o) {
  std::vector<const Operator*> ops;
  try {
    ops = select_operators(o.filter, o.dtypes);
  } catch (const UsageError& e) {
    std::cerr << "archbench list: " << e.what() << "\n";
    return kUsage;
  }
  // The id stays whole on its line (it is what --filter takes); the model wraps.
  text::Table table({{"id"}, {"impl"}, {"min CC"}, {"GFLOP", true}, {"MB", true}, {"shape from", false, true, 16}});
  for (const auto* op : ops) {
    const auto& s = op->spec();
    table.add_row({op->id(), std::string(impl_name(s.impl)), s.min_cc.str(), fmt::format("{:.1f}", s.flops / 1e9),
                   fmt::format("{:.1f}", s.bytes / 1e6), s.model});
  }
  std::cout << table.render();
  return kOk;
}

}  // namespace archbench::cli
