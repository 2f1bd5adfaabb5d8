// `archbench framework`: the user's own PyTorch, in the user's interpreter, at archbench's shapes.
// The ops come from the registry (harness/framework/framework_op), the probe that runs them ships
// in tools/framework/framework_probe.py, and the verdicts are harness/framework/probe_answer's.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <tuple>
#include <variant>
#include <stdexcept>
#include <iterator>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "harness/arch/products.hpp"
#include "harness/framework/framework_compare.hpp"
#include "harness/framework/framework_op.hpp"
#include "harness/framework/library_images.hpp"
#include "harness/framework/probe_answer.hpp"
#include "harness/report/html_framework.hpp"
#include "harness/ops/id_filter.hpp"
#include "harness/ops/registry.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/framework_probe_runner.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/temp_dir.hpp"

namespace archbench::cli {
namespace {



using framework::FrameworkOp;
using nlohmann::json;

std::string shape_of(const std::string& id) { return id.substr(id.rfind('/') + 1); }

std::string us(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : std::string("-"); }

// The backend the variant ran, in words: the family of its main kernels.
std::string ran(const framework::Variant& v) {
  if (v.status == framework::VariantStatus::Refused) return "refused";
  if (v.status == framework::VariantStatus::Failed) return v.image_missing ? "no image" : "failed";
  if (v.status == framework::VariantStatus::NotInstalled) return "not installed";
  return std::string(framework::family_name(v.main_family()));
}

// One line on the extension attention packages the probe tried at the SDPA problems: not installed,
// or at how many shapes each ran and was the fastest.
std::string extension_summary(const framework::ProbeAnswer& a, const std::vector<framework::OpVerdict>& verdicts) {
  std::vector<std::string> parts;
  for (const auto& ext : framework::kExtensionBackends) {
    size_t tried = 0, ran_n = 0, fastest = 0;
    std::string absent;
    for (size_t i = 0; i < a.ops.size(); ++i) {
      for (const auto& var : a.ops[i].variants) {
        if (var.backend != ext.backend) continue;
        ++tried;
        if (var.status == framework::VariantStatus::NotInstalled || var.status == framework::VariantStatus::Failed) absent = ran(var);
        if (var.status == framework::VariantStatus::Ran) ++ran_n;
        if (verdicts[i].fastest == &var) ++fastest;
      }
    }
    if (tried == 0) continue;
    parts.push_back(ran_n == 0 && !absent.empty()
                        ? fmt::format("{} {}", ext.backend, absent)
                        : fmt::format("{} ran at {} of {} SDPA ops, fastest at {}", ext.backend, ran_n, tried, fastest));
  }
  return parts.empty() ? "" : "extension attention: " + fmt::format("{}", fmt::join(parts, "; "));
}

// A step's GPU time in the framework ops archbench measures (by op id, longest first) and in calls of
// those ops at shapes archbench has no op for.
struct StepOps {
  std::vector<std::pair<double, std::string>> by_op;
  double other_shapes_us = 0;
  [[nodiscard]] std::string line(const std::string& model, double step_us) const {
    double in_ops = 0;
    for (const auto& [us, id] : by_op) in_ops += us;
    std::string top;
    for (size_t i = 0; i < std::min<size_t>(by_op.size(), 3); ++i) {
      top += fmt::format("{}{} {:.0f}%", i ? ", " : "", by_op[i].second.substr(10), 100 * by_op[i].first / step_us);
    }
    return fmt::format("{}: {:.0f}% of the GPU time in {} op(s) archbench measures{}; {:.0f}% in the same ops at other shapes",
                       model, 100 * in_ops / step_us, by_op.size(), top.empty() ? "" : " (" + top + ")",
                       100 * other_shapes_us / step_us);
  }
};

StepOps step_ops(const framework::DenoiserStep& d, const std::vector<FrameworkOp>& ops) {
  const auto dtype = parse_dtype(d.dtype).value_or(DType::F32);  // "float16", "bfloat16" as torch names them
  std::map<std::string, double> us;
  StepOps out;
  for (const auto& c : d.calls) {
    if (const FrameworkOp* f = framework::framework_op_of(c, dtype, ops)) us[f->id] += c.us;
    else out.other_shapes_us += c.us;
  }
  for (const auto& [id, t] : us) out.by_op.emplace_back(t, id);
  std::ranges::sort(out.by_op, std::greater<>{});
  return out;
}

// The finding of `kind` for op `id` in a recorded `archbench framework --json` (its "verdicts"), if any.
const json* recorded_finding(const json& raw, const std::string& id, std::string_view kind) {
  if (!raw.contains("verdicts") || !raw["verdicts"].is_array()) return nullptr;
  for (const auto& v : raw["verdicts"]) {
    if (!v.is_object() || v.value("id", "") != id || !v.contains("findings") || !v["findings"].is_array()) continue;
    for (const auto& f : v["findings"]) {
      if (f.is_object() && f.value("kind", "") == kind) return &f;
    }
  }
  return nullptr;
}

// A recorded answer (the probe's, or --json of an earlier run); throws with what is wrong.
framework::ProbeAnswer read_answer(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return framework::parse_probe_answer(json::parse(in));
}

// The framework ops --filter and --dtype select, in registry order.
std::vector<FrameworkOp> selected_ops(const FrameworkOptions& o) {
  std::vector<FrameworkOp> ops;
  for (auto& f : framework::framework_ops(registry().select("*", {}))) {
    const bool dtype_ok = o.dtypes.empty() || std::ranges::find(o.dtypes, std::string(dtype_name(f.dtype))) != o.dtypes.end();
    if (dtype_ok && (id_matches(o.filter, f.id) || id_matches(o.filter, f.twin))) ops.push_back(std::move(f));
  }
  return ops;
}

// The answer to judge: the probe's, run now, or a recorded one (--answer). An exit code when there
// is none; `probe_code` is the probe's own exit code (0 for a recorded answer).
std::variant<std::string, int> obtain_answer(const FrameworkOptions& o, const std::vector<FrameworkOp>& ops,
                                             int& probe_code) {
  probe_code = 0;
  if (!o.answer_path.empty()) {  // a recorded answer: judged again, nothing run
    std::ifstream in(o.answer_path);
    if (!in) {
      std::cerr << "archbench framework: cannot read " << o.answer_path << "\n";
      return kBadInput;
    }
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  ProbeRun run;
  try {
    run = run_framework_probe(ops, o);
  } catch (const std::exception& e) {
    std::cerr << "archbench framework: " << e.what() << "\n";
    return kInternal;
  }
  if (run.outcome == ProbeRun::Outcome::Timeout) {
    std::cerr << fmt::format("archbench framework: the probe ran past its {:.0f} s deadline and was stopped "
                             "(--timeout raises it)\n", o.timeout_s);
    return kInternal;
  }
  if (run.outcome == ProbeRun::Outcome::NoInterpreter) {
    std::cerr << "archbench framework: cannot run " << o.python << " (give the interpreter with --python)\n";
    return kBadInput;
  }
  probe_code = run.exit_code;
  return std::move(run.text);
}

// The exit code for an answer whose status means nothing was measured; nullopt when it was.
std::optional<int> status_exit(const framework::ProbeAnswer& a, const json& raw, const FrameworkOptions& o) {
  switch (a.status) {
    case framework::ProbeStatus::Ok: return std::nullopt;
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
  return kInternal;
}

// What the ops' table and findings amount to, and their JSON.
struct OpsOutcome {
  std::vector<framework::OpVerdict> verdicts;
  size_t failing = 0, wrong = 0, slower = 0;
  json ops = json::array();
};

// An image-missing finding names the file without the image: among what the op's plug-in loaded,
// else what the process had; a recorded --json judged on another machine keeps the verdict made there.
void name_the_file(framework::Finding& f, const framework::ProbeOp& op, const framework::ProbeAnswer& a,
                   const json& raw, arch::ComputeCapability cc) {
  const auto lacking = framework::libraries_without_image(op.libraries.empty() ? a.loaded_libraries : op.libraries, cc);
  for (const auto& l : lacking) f.what += "; " + l;
  if (!lacking.empty()) {
    f.fix = "rebuild it with " + cc.str() + " in TORCH_CUDA_ARCH_LIST (or +PTX of an older one), or install a build that "
            "carries it";
  } else if (const json* recorded = recorded_finding(raw, op.id, "image-missing")) {
    f.what = recorded->value("what", f.what);
    f.fix = recorded->value("fix", f.fix);
  }
}

OpsOutcome judge_ops(const framework::ProbeAnswer& a, const json& raw) {
  OpsOutcome out;
  text::Table table({{"op"}, {"dtype"}, {"shape"}, {"default ran"}, {"check"}, {"GPU us", true}, {"host us", true},
                     {"fastest"}, {"x", true}});
  const arch::ComputeCapability cc = arch::parse_device_spec(a.device_cc.empty() ? "0.0" : a.device_cc).cc;
  for (const auto& op : a.ops) {
    out.verdicts.push_back(framework::judge_op(op));
    auto& v = out.verdicts.back();
    for (auto& f : v.findings) {
      if (f.kind == framework::FindingKind::ImageMissing) name_the_file(f, op, a, raw, cc);
    }
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
      out.failing += f.fails() && f.kind != framework::FindingKind::WrongResult;
      out.wrong += f.kind == framework::FindingKind::WrongResult;
      out.slower += f.kind == framework::FindingKind::DefaultSlower;
      jf.push_back({{"kind", name_of(framework::kFindingKinds, f.kind)}, {"what", f.what}, {"fix", f.fix}});
    }
    json jv = json::array();
    for (const auto& var : op.variants) {
      jv.push_back({{"backend", var.backend}, {"status", name_of(framework::kVariantStatuses, var.status)},
                    {"ran", ran(var)}, {"reason", var.reason}, {"rel_error", var.rel_error ? json(*var.rel_error) : json(nullptr)},
                    {"gpu_us", var.gpu_us ? json(*var.gpu_us) : json(nullptr)},
                    {"host_us", var.host_us ? json(*var.host_us) : json(nullptr)}});
    }
    out.ops.push_back({{"id", op.id}, {"check", v.check == framework::Check::Pass ? "pass" : v.check == framework::Check::Wrong ? "wrong" : "not-checked"},
                       {"tolerance", v.tolerance ? json(*v.tolerance) : json(nullptr)},
                       {"fastest", v.fastest ? json(v.fastest->backend) : json(nullptr)}, {"variants", jv}, {"findings", jf}});
  }
  std::cout << table.render();
  if (const std::string ext = extension_summary(a, out.verdicts); !ext.empty()) std::cout << text::wrap_text(ext + "\n");
  bool any_finding = false;
  for (const auto& v : out.verdicts) {
    for (const auto& f : v.findings) {
      if (!any_finding) std::cout << "\nfindings:\n";
      any_finding = true;
      std::cout << text::wrap(fmt::format("{} {}: {}", v.op->id, name_of(framework::kFindingKinds, f.kind), f.what),
                              text::kColumns, "  ", "      ");
      if (!f.fix.empty()) std::cout << text::wrap("fix: " + f.fix, text::kColumns, "      ", "           ");
    }
  }
  return out;
}

// The denoiser steps' table and lines, and their JSON; a step that failed or computed NaN counts in
// `failing`.
json report_steps(const framework::ProbeAnswer& a, size_t& failing) {
  json out_steps = json::array();
  if (a.steps_source == framework::StepsSource::NotAsked) return out_steps;
  if (a.steps_source == framework::StepsSource::NoDiffusers) {
    std::cout << "\n" << text::wrap_text(fmt::format("denoiser steps: not run ({}); pip install diffusers to run them\n",
                                                    a.steps_reason));
  } else {
    std::cout << "\n"
              << text::wrap_text(a.steps_source == framework::StepsSource::Diffusers
                                     ? fmt::format("denoiser steps (diffusers {}, published configs, random weights):\n",
                                                   a.diffusers_version)
                                     : fmt::format("denoiser steps, composites of each model's ops at its shapes (torch.nn "
                                                   "only, random weights; {}; pip install diffusers for the real "
                                                   "models):\n", a.steps_reason));
    text::Table steps({{"model"}, {"dtype"}, {"params", true}, {"build s", true}, {"wall ms", true}, {"GPU busy ms", true},
                       {"launches", true}, {"err vs fp32"}, {"best fix (wall ms)"}});
    std::vector<std::string> lines;
    const auto all_ops = framework::framework_ops(registry().select("*", {}));
    for (const auto& d : a.steps) {
      if (!d.ran) {
        steps.add_row({d.model, d.dtype, "-", "-", "-", "-", "-", "failed", d.reason.substr(0, 40)});
        ++failing;
        continue;
      }
      std::string best = "-";
      double best_ms = d.wall_ms.value_or(0);
      for (const auto& [fix, ms] : d.fixes_wall_ms) {
        if (ms && *ms < best_ms * 0.95) {
          best_ms = *ms;
          best = fmt::format("{} {:.1f} ({:.2f}x)", fix, *ms, *d.wall_ms / *ms);
        }
      }
      failing += d.nan ? 1 : 0;
      steps.add_row({d.model, d.dtype, fmt::format("{:.2f}B", d.parameters / 1e9), fmt::format("{:.1f}", d.build_s),
                     d.wall_ms ? fmt::format("{:.1f}", *d.wall_ms) : "-",
                     d.gpu_busy_ms ? fmt::format("{:.1f}", *d.gpu_busy_ms) : "-",
                     d.launches ? fmt::format("{:.0f}", *d.launches) : "-",
                     d.nan ? std::string("NaN") : fmt::format("{:.1e}", d.rel_error_vs_fp32.value_or(NAN)), best});
      // Where the GPU time goes, by backend family.
      std::map<framework::KernelFamily, double> by;
      double all = 0;
      for (const auto& k : d.kernels) {
        by[k.family] += k.us;
        all += k.us;
      }
      std::vector<std::pair<double, framework::KernelFamily>> order;
      for (const auto& [f, us] : by) order.emplace_back(us, f);
      std::ranges::sort(order, std::greater<>{});
      std::string shares;
      for (size_t i = 0; i < std::min<size_t>(order.size(), 5); ++i) {
        shares += fmt::format("{}{} {:.0f}%", i ? ", " : "", framework::family_name(order[i].second), 100 * order[i].first / all);
      }
      lines.push_back(fmt::format("{}: GPU time by family: {}", d.model, shares));
      const StepOps measured = step_ops(d, all_ops);
      if (!d.calls.empty()) lines.push_back(measured.line(d.model, all));
      json fixes = json::object();
      for (const auto& [fix, ms] : d.fixes_wall_ms) fixes[fix] = ms ? json(*ms) : json(nullptr);
      json archbench_ops = json::array();
      for (const auto& [us, id] : measured.by_op) archbench_ops.push_back({{"id", id}, {"us", us}});
      out_steps.push_back({{"model", d.model}, {"wall_ms", d.wall_ms ? json(*d.wall_ms) : json(nullptr)},
                           {"gpu_busy_ms", d.gpu_busy_ms ? json(*d.gpu_busy_ms) : json(nullptr)}, {"nan", d.nan},
                           {"best_fix", best}, {"fixes_wall_ms", fixes}, {"archbench_ops", archbench_ops},
                           {"other_shapes_us", measured.other_shapes_us}});
    }
    std::cout << steps.render();
    for (const auto& l : lines) std::cout << text::wrap(l, text::kColumns, "  ", "    ");
  }
  return out_steps;
}

// --baseline: the changes against an earlier answer, printed, and their JSON; an exit code when the
// baseline cannot be read.
std::variant<std::pair<size_t, json>, int> compare_baseline(const FrameworkOptions& o, const framework::ProbeAnswer& a) {
  size_t regressions = 0;
  json out_changes = json::array();
  framework::ProbeAnswer base;
  try {
    base = read_answer(o.baseline_path);
  } catch (const std::exception& e) {
    std::cerr << "archbench framework: --baseline " << o.baseline_path << ": " << e.what() << "\n";
    return kBadInput;
  }
  const auto changes = framework::compare_answers(base, a);
  for (const auto& c : changes) regressions += c.regression();
  // Nothing in common is nothing compared, which is not a pass.
  const auto fresh = std::ranges::count(changes, framework::ChangeKind::New, &framework::Change::kind);
  if (static_cast<size_t>(fresh) == a.ops.size()) {
    std::cout << "no framework op of this run is in the baseline: nothing compared\n";
    ++regressions;
  }
  std::cout << "\n" << text::wrap_text(fmt::format("against {} (torch {}, {}): {} regression(s)\n", o.baseline_path,
                                                  base.torch_version, base.device_name, regressions));
  for (const auto& c : changes) {
    if (c.kind == framework::ChangeKind::New || c.kind == framework::ChangeKind::Missing) continue;
    std::cout << text::wrap(fmt::format("{} {}: {}", name_of(framework::kChangeKinds, c.kind), c.id, c.what),
                            text::kColumns, "  ", "      ");
    out_changes.push_back({{"kind", name_of(framework::kChangeKinds, c.kind)}, {"id", c.id}, {"what", c.what},
                           {"regression", c.regression()}});
  }
  return std::pair{regressions, out_changes};
}

int framework_command(const FrameworkOptions& o) {
  const TextToStderr text_to_stderr(is_stdout(o.json_path));  // --json -: JSON alone on stdout
  const std::vector<FrameworkOp> ops = selected_ops(o);
  if (ops.empty() && o.plugin_files.empty()) {
    std::cerr << "archbench framework: --filter '" << o.filter << "' matches no framework op (`archbench framework "
                 "--list` shows them)\n";
    return kUsage;
  }
  if (o.list) {
    for (const auto& f : ops) std::cout << fmt::format("{:<58} {}\n", f.id, f.twin);
    return kOk;
  }
  int code = 0;
  auto answer = obtain_answer(o, ops, code);
  if (const int* exit = std::get_if<int>(&answer)) return *exit;
  framework::ProbeAnswer a;
  json raw;
  try {
    raw = json::parse(std::get<std::string>(answer));
    a = framework::parse_probe_answer(raw);
  } catch (const std::exception& e) {
    if (!o.answer_path.empty()) {
      std::cerr << "archbench framework: " << o.answer_path << " is not a probe answer: " << e.what() << "\n";
      return kBadInput;
    }
    std::cerr << "archbench framework: the probe's answer is not readable (" << e.what() << "; exit " << code << ")\n";
    return kInternal;
  }
  // A recorded answer is judged whole; --filter and --dtype select what is run, not what was.
  if (const auto exit = status_exit(a, raw, o)) return *exit;

  std::cout << text::wrap_text(fmt::format("archbench framework | torch {} (CUDA {}, cuDNN {}) | Python {} | {} ({})\n",
                                           a.torch_version, a.torch_cuda, a.cudnn ? std::to_string(*a.cudnn) : "none",
                                           a.python, a.device_name, a.device_cc));
  if (!a.disabled_sdpa_backends.empty()) {
    std::cout << fmt::format("default dispatch with these SDPA backends disabled: {}\n", fmt::join(a.disabled_sdpa_backends, ", "));
  }
  OpsOutcome judged = judge_ops(a, raw);
  size_t failing = judged.failing;
  const json out_steps = report_steps(a, failing);
  size_t regressions = 0;
  json out_changes = json::array();
  if (!o.baseline_path.empty()) {
    auto compared = compare_baseline(o, a);
    if (const int* exit = std::get_if<int>(&compared)) return *exit;
    std::tie(regressions, out_changes) = std::get<std::pair<size_t, json>>(compared);
  }
  const size_t wrong = judged.wrong, slower = judged.slower;
  const auto& verdicts = judged.verdicts;
  const json& out_ops = judged.ops;
  const bool pass = failing == 0 && wrong == 0 && regressions == 0;
  std::cout << "\n" << text::wrap_text(fmt::format("summary: {} framework op(s) in {:.1f} s: {} failed, {} wrong, {} where the "
                                                   "default dispatch is slower than another backend -> {}\n",
                                                   a.ops.size(), a.seconds, failing, wrong, slower, pass ? "PASS" : "FAIL"));
  if (regressions > 0) std::cout << fmt::format("{} regression(s) against the baseline -> FAIL\n", regressions);
  if (!o.html_path.empty() && !write_or_say("framework", o.html_path, html::framework_page(a, verdicts))) return kInternal;
  if (!o.json_path.empty()) {
    // A recorded --json judged again keeps the probe's schema it names; a probe answer names its own.
    if (raw.value("schema", "") != "archbench.framework") raw["probe_schema"] = raw.value("schema", "");
    raw["schema"] = "archbench.framework";
    raw["schema_version"] = 1;
    raw["verdicts"] = out_ops;
    raw["step_verdicts"] = out_steps;
    raw["changes"] = out_changes;
    if (!write_or_say("framework", o.json_path, raw.dump(1) + "\n")) return kInternal;
  }
  return pass ? kOk : kOperatorFailed;
}

}  // namespace

void add_framework_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "framework",
      "run the user's PyTorch at archbench's shapes: which backend ran, right, how fast, the fastest one", framework_command);
  add_python_option(cmd, o->python, "torch to run");
  add_filter_option(cmd, o->filter, "framework op ids ('framework/sdpa/*') or their twins' ids");
  cmd->add_option("--dtype", o->dtypes, "only these dtypes (f32, tf32, f16, bf16, e4m3, e5m2)")->delimiter(',');
  cmd->add_flag("--quick", o->quick, "backends and correctness only, no timing");
  cmd->add_flag("--list", o->list, "list the framework ops and their archbench twins; run nothing");
  add_json_option(cmd, o->json_path, "the answer and verdicts", "archbench.framework v1");
  value_name(cmd->add_option("--html", o->html_path, "write a self-contained HTML page: backends, findings, steps"), "FILE");
  cmd->add_option("--probe", o->probe, "the probe script (default: tools/framework/framework_probe.py of this build)");
  cmd->add_option("--timeout", o->timeout_s, "deadline of the whole probe in seconds (default 900)");
  cmd->add_option("--seed", o->seed, "seed of the inputs");
  cmd->add_option("--ops", o->plugin_files, "a plug-in file of your own ops (docs/framework.md); repeatable");
  cmd->add_option("--steps", o->steps,
                  "denoiser steps to run when diffusers imports: sd15-unet,sdxl-unet,sd3-mmdit,flux-dit (default "
                  "all; none: no step; never in --quick)");
  cmd->add_option("--baseline", o->baseline_path,
                  "an earlier run (--json) to gate against: exit 1 on an op that now fails, is wrong, is >10% "
                  "slower, or runs another backend");
  cmd->add_option("--answer", o->answer_path,
                  "judge a recorded answer (a probe's, or --json of an earlier run) instead of running the probe");
  cmd->add_option("--disable-sdpa-backend", o->disable_sdpa_backends,
                  "run the default dispatch without this SDPA backend (cudnn, flash, efficient, math): a forced "
                  "fallback, to see what it costs; repeatable")
      ->check(one_of({"cudnn", "flash", "efficient", "math"}));
}

}  // namespace archbench::cli
