#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/util/text_wrap.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/selection.hpp"

namespace archbench::cli {
namespace {

struct ListOptions {
  std::string filter = "*";
  std::vector<std::string> dtypes;
  std::string json_path;  // the operators as JSON (schema archbench.list v1); "-" = stdout
};

// The operator list as JSON: schema "archbench.list" v1, one object per operator.
nlohmann::json operators_to_json(const std::vector<const Operator*>& ops) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto* op : ops) {
    const auto& s = op->spec();
    list.push_back({{"id", op->id()},
                    {"family", s.family},
                    {"name", s.name},
                    {"dtype", std::string(dtype_name(s.dtype))},
                    {"shape", s.shape},
                    {"impl", std::string(impl_name(s.impl))},
                    {"min_cc", s.min_cc.str()},
                    {"flops", s.flops},
                    {"bytes", s.bytes},
                    {"model", s.model}});
  }
  return {{"schema", "archbench.list"}, {"schema_version", 1}, {"operators", list}};
}

int list_command(const ListOptions& o) {
  const auto selected = select_or_explain("list", o.filter, o.dtypes);
  if (!selected) return kUsage;
  const std::vector<const Operator*>& ops = *selected;
  if (!o.json_path.empty()) {
    if (!write_or_say("list", o.json_path, operators_to_json(ops).dump(2) + "\n")) return kInternal;
    if (is_stdout(o.json_path)) return kOk;  // the JSON is the answer; the table would say the same
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

}  // namespace

void add_list_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "list", "list the operators of this build (no GPU needed)", list_command);
  add_filter_option(cmd, o->filter, "operator ids");
  value_name(cmd->add_option("--dtype", o->dtypes, "comma-separated dtypes"), "LIST")->delimiter(',');
  add_json_option(cmd, o->json_path, "the operators", "archbench.list v1");
}

}  // namespace archbench::cli
