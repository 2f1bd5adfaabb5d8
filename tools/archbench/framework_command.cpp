// `archbench framework`: the user's own PyTorch, in the user's interpreter, at archbench's shapes.
// The ops come from the registry (harness/framework/framework_op), the probe that runs them ships
// in tools/framework/framework_probe.py, and the verdicts are harness/framework/probe_answer's.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "harness/framework/framework_op.hpp"
#include "harness/framework/probe_answer.hpp"
#include "harness/ops/id_filter.hpp"
#include "harness/ops/registry.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/temp_dir.hpp"

#ifndef ARCHBENCH_FRAMEWORK_PROBE
#define ARCHBENCH_FRAMEWORK_PROBE "tools/framework/framework_probe.py"
#endif

namespace archbench::cli {
namespace {

using framework::FrameworkOp;
using nlohmann::json;

json request_json(const std::vector<FrameworkOp>& ops, const FrameworkOptions& o) {
  json list = json::array();
  for (const auto& o : ops) {
    list.push_back({{"id", o.id}, {"op", o.op}, {"dtype", std::string(dtype_name(o.dtype))},
                    {"layout", o.layout == framework::Layout::ChannelsLast ? json("channels_last") : json(nullptr)},
                    {"dims", o.dims}, {"twin", o.twin}});
  }
  return {{"schema", "archbench.framework.request"}, {"schema_version", 1}, {"quick", o.quick}, {"seed", o.seed},
          {"disable_sdpa_backends", o.disable_sdpa_backends}, {"ops", list}};
}

// Single quotes for sh, so that paths with spaces or quotes reach the probe as they are.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the probe under a deadline (coreutils timeout: SIGTERM, then SIGKILL 10 s later); its
// stdout is the answer, its stderr (progress, the framework's warnings) goes to ours.
int run_probe(const std::string& python, const std::string& probe, const std::string& request, double deadline_s,
              std::string& out) {
  const std::string command = fmt::format("timeout -k 10 {:.0f} {} {} {}", deadline_s, quoted(python), quoted(probe),
                                          quoted(request));
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return -1;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string shape_of(const std::string& id) { return id.substr(id.rfind('/') + 1); }

std::string us(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : std::string("-"); }

// The backend the variant ran, in words: the family of its main kernels.
std::string ran(const framework::Variant& v) {
  if (v.status == framework::VariantStatus::Refused) return "refused";
  if (v.status == framework::VariantStatus::Failed) return v.image_missing ? "no image" : "failed";
  return std::string(framework::family_name(v.main_family()));
}

}  // namespace

int framework_command(const FrameworkOptions& o) {
  for (const auto& b : o.disable_sdpa_backends) {
    if (b != "cudnn" && b != "flash" && b != "efficient" && b != "math") {
      std::cerr << "archbench framework: --disable-sdpa-backend " << b << ": not one of cudnn, flash, efficient, math\n";
      return kUsage;
    }
  }
  std::vector<FrameworkOp> ops;
  for (auto& f : framework::framework_ops(registry().select("*", {}))) {
    const bool dtype_ok = o.dtypes.empty() || std::ranges::find(o.dtypes, std::string(dtype_name(f.dtype))) != o.dtypes.end();
    if (dtype_ok && (id_matches(o.filter, f.id) || id_matches(o.filter, f.twin))) ops.push_back(std::move(f));
  }
  if (ops.empty()) {
    std::cerr << "archbench framework: --filter '" << o.filter << "' matches no framework op (`archbench framework "
                 "--list` shows them)\n";
    return kUsage;
  }
  if (o.list) {
    for (const auto& f : ops) std::cout << fmt::format("{:<58} {}\n", f.id, f.twin);
    return kOk;
  }
  std::optional<TempDir> dir;
  std::string answer_text;
  int code = 0;
  try {
    dir.emplace("archbench-framework", "directory for the probe's request");
    const std::string request = dir->file("request.json");
    std::ofstream(request) << request_json(ops, o).dump();
    code = run_probe(o.python, o.probe.empty() ? ARCHBENCH_FRAMEWORK_PROBE : o.probe, request, o.timeout_s, answer_text);
  } catch (const std::exception& e) {
    std::cerr << "archbench framework: " << e.what() << "\n";
    return kInternal;
  }
  if (code == 124 || code == 137) {
    std::cerr << fmt::format("archbench framework: the probe ran past its {:.0f} s deadline and was stopped "
                             "(--timeout raises it)\n", o.timeout_s);
    return kInternal;
  }
  if (code == 127 || code == -1) {
    std::cerr << "archbench framework: cannot run " << o.python << " (give the interpreter with --python)\n";
    return kBadInput;
  }
  framework::ProbeAnswer a;
  json raw;
  try {
    raw = json::parse(answer_text);
    a = framework::parse_probe_answer(raw);
  } catch (const std::exception& e) {
    std::cerr << "archbench framework: the probe's answer is not readable (" << e.what() << "; exit " << code << ")\n";
    return kInternal;
  }
  switch (a.status) {
    case framework::ProbeStatus::Ok: break;
    case framework::ProbeStatus::NoTorch:
    case framework::ProbeStatus::TorchTooOld:
      std::cerr << text::wrap_text(fmt::format("archbench framework: {}: {} (the interpreter: {})\n",
                                               name_of(framework::kProbeStatuses, a.status), a.reason, o.python));
      return kBadInput;
    case framework::ProbeStatus::TorchWithoutCuda:
    case framework::ProbeStatus::NoGpu:
      std::cerr << text::wrap_text(fmt::format("archbench framework: {}: {}\n", name_of(framework::kProbeStatuses, a.status), a.reason));
      return kNoDevice;
    case framework::ProbeStatus::BadRequest:
    case framework::ProbeStatus::ProbeError:
      std::cerr << "archbench framework: the probe failed: " << a.reason << "\n" << raw.value("traceback", "") << "\n";
      return kInternal;
  }

  std::cout << text::wrap_text(fmt::format("archbench framework | torch {} (CUDA {}, cuDNN {}) | Python {} | {} ({})\n",
                                           a.torch_version, a.torch_cuda, a.cudnn ? std::to_string(*a.cudnn) : "none",
                                           a.python, a.device_name, a.device_cc));
  if (!o.disable_sdpa_backends.empty()) {
    std::cout << fmt::format("default dispatch with these SDPA backends disabled: {}\n", fmt::join(o.disable_sdpa_backends, ", "));
  }
  text::Table table({{"op"}, {"dtype"}, {"shape"}, {"default ran"}, {"check"}, {"GPU us", true}, {"host us", true},
                     {"fastest"}, {"x", true}});
  std::vector<framework::OpVerdict> verdicts;
  size_t failing = 0, wrong = 0, slower = 0;
  json out_ops = json::array();
  for (const auto& op : a.ops) {
    verdicts.push_back(framework::judge_op(op));
    const auto& v = verdicts.back();
    const auto& def = op.variants.front();
    const std::string check = v.check == framework::Check::Pass    ? fmt::format("ok {:.1e}", *def.rel_error)
                              : v.check == framework::Check::Wrong ? fmt::format("WRONG {:.1e}", def.rel_error.value_or(NAN))
                                                                   : std::string("-");
    const std::string fastest = v.fastest ? v.fastest->backend : std::string("-");
    const std::string ratio = v.fastest && def.gpu_us ? fmt::format("{:.2f}", *def.gpu_us / *v.fastest->gpu_us) : "-";
    table.add_row({op.op + (op.layout == "channels_last" ? " (cl)" : ""), op.dtype, shape_of(op.id).substr(0, 34),
                   ran(def), check, us(def.gpu_us), us(def.host_us), fastest, ratio});
    json jf = json::array();
    for (const auto& f : v.findings) {
      failing += f.fails() && f.kind != framework::FindingKind::WrongResult;
      wrong += f.kind == framework::FindingKind::WrongResult;
      slower += f.kind == framework::FindingKind::DefaultSlower;
      jf.push_back({{"kind", name_of(framework::kFindingKinds, f.kind)}, {"what", f.what}, {"fix", f.fix}});
    }
    json jv = json::array();
    for (const auto& var : op.variants) {
      jv.push_back({{"backend", var.backend}, {"status", name_of(framework::kVariantStatuses, var.status)},
                    {"ran", ran(var)}, {"reason", var.reason}, {"rel_error", var.rel_error ? json(*var.rel_error) : json(nullptr)},
                    {"gpu_us", var.gpu_us ? json(*var.gpu_us) : json(nullptr)},
                    {"host_us", var.host_us ? json(*var.host_us) : json(nullptr)}});
    }
    out_ops.push_back({{"id", op.id}, {"check", v.check == framework::Check::Pass ? "pass" : v.check == framework::Check::Wrong ? "wrong" : "not-checked"},
                       {"tolerance", v.tolerance ? json(*v.tolerance) : json(nullptr)},
                       {"fastest", v.fastest ? json(v.fastest->backend) : json(nullptr)}, {"variants", jv}, {"findings", jf}});
  }
  std::cout << table.render();
  bool any_finding = false;
  for (const auto& v : verdicts) {
    for (const auto& f : v.findings) {
      if (!any_finding) std::cout << "\nfindings:\n";
      any_finding = true;
      std::cout << text::wrap(fmt::format("{} {}: {}", v.op->id, name_of(framework::kFindingKinds, f.kind), f.what),
                              text::kColumns, "  ", "      ");
      if (!f.fix.empty()) std::cout << text::wrap("fix: " + f.fix, text::kColumns, "      ", "           ");
    }
  }
  const bool pass = failing == 0 && wrong == 0;
  std::cout << "\n" << text::wrap_text(fmt::format("summary: {} framework op(s) in {:.1f} s: {} failed, {} wrong, {} where the "
                                                   "default dispatch is slower than another backend -> {}\n",
                                                   a.ops.size(), a.seconds, failing, wrong, slower, pass ? "PASS" : "FAIL"));
  if (!o.json_path.empty()) {
    raw["probe_schema"] = raw.value("schema", "");
    raw["schema"] = "archbench.framework";
    raw["schema_version"] = 1;
    raw["verdicts"] = out_ops;
    try {
      write_output(o.json_path, raw.dump(1) + "\n");
    } catch (const std::exception& e) {
      std::cerr << "archbench framework: " << e.what() << "\n";
      return kInternal;
    }
  }
  return pass ? kOk : kOperatorFailed;
}

}  // namespace archbench::cli
