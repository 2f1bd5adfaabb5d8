#include <vector>
#include <string>
#include <fmt/format.h>

#include <iostream>

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
  std::cout << fmt::format("{:<44} {:<7} {:<7} {:>9} {:>9}  {}\n", "id", "impl", "min CC", "GFLOP", "MB", "shape from");
  for (const auto* op : ops) {
    const auto& s = op->spec();
    std::cout << fmt::format("{:<44} {:<7} {:<7} {:>9.1f} {:>9.1f}  {}\n", op->id(), impl_name(s.impl), s.min_cc.str(),
                             s.flops / 1e9, s.bytes / 1e6, s.model);
  }
  return kOk;
}

}  // namespace archbench::cli
