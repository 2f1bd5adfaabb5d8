// archbench: per device and per operator, which kernel image runs, whether it computes the
// right answer, and how fast. See README.md and docs/.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <string>

#include "harness/history/history_store.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/util/text_wrap.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/exit_codes.hpp"

namespace {

// The options compare, merge and report share: one meaning, one help text.
CLI::Option* add_baseline_option(CLI::App* command, std::string& path) {
  return archbench::cli::value_name(
      command->add_option("--baseline", path, "baseline file, or a directory holding <device-key>.json (e.g. baselines)"),
      "FILE|DIR");
}
CLI::Option* add_thresholds_option(CLI::App* command, std::string& path) {
  return archbench::cli::value_name(
      command->add_option("--thresholds", path, "JSON: default and per-family min_effect / alpha"), "FILE");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace archbench;
  CLI::App app{"archbench: which kernel image runs on this GPU, is it right, how fast"};
  // Set before the subcommands are added: they inherit the formatter, the help flag and
  // allow_extras, which leaves unknown arguments to leftover_message() (a suggestion) instead of
  // CLI11's "The following arguments were not expected".
  app.formatter(std::make_shared<cli::HelpFormatter>());
  app.set_help_flag("-h,--help", "print this help and exit");
  app.allow_extras();
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "print the build manifest and exit");

  cli::RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "probe images, check correctness (blocking) and time every operator");
  cli::value_name(run_cmd->add_option("--filter", run.filter, "globs over operator ids, comma-separated (any matches): 'matmul/*', 'norm/*,*/f16/*'"), "GLOBS");
  cli::value_name(run_cmd->add_option("--dtype", run.dtypes, "comma-separated dtypes: f32,tf32,f16,bf16"), "LIST")->delimiter(',');
  cli::value_name(run_cmd->add_option("--device", run.device,
                      "CUDA device indices, comma-separated (0,1), or all (default); CUDA's numbering: the devices "
                      "CUDA_VISIBLE_DEVICES leaves, fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID (nvidia-smi's "
                      "order)"), "LIST");
  cli::value_name(run_cmd->add_option("--json", run.json_path, "write the results as JSON (schema archbench.run v1); - for stdout (the report then goes to stderr)"), "FILE");
  cli::value_name(run_cmd->add_option("--gbench-json", run.gbench_json_path, "also write the timings in Google Benchmark's JSON format; - for stdout"), "FILE");
  cli::value_name(run_cmd->add_option("--seed", run.seed, "seed for the random inputs (default: fresh, recorded in the report)"), "N");
  run_cmd->add_flag("!--no-timing", run.timing, "image and correctness only");
  run_cmd->add_flag("--quick", run.quick,
                    "the quick tier, for after an environment change: every image and correctness at the check shapes; "
                    "no benchmark shapes, no timing");
  run_cmd->add_flag("--hot-l2", run.hot_l2, "do not flush the L2 between timing samples");
  cli::value_name(run_cmd->add_option("--cuda-graph", run.cuda_graph,
                      "time by CUDA-graph replay: off (default), auto (launch-bound operators, pilot median < 50 us) "
                      "or all; the time is then per launch in a back-to-back replay"), "off|auto|all")
      ->check(CLI::IsMember({"off", "auto", "all"}));
  cli::value_name(run_cmd->add_option("--op-timeout", run.op_timeout_s,
                      "seconds an operator may run before its worker is killed and it is recorded as hung "
                      "(default: derived per operator from its size)"), "SECONDS")
      ->check(cli::positive_seconds());
  run_cmd->add_flag("-q,--quiet", run.quiet,
                    "no progress on stderr (default: one line updated in place on a terminal, one plain line per operator otherwise)");

  cli::ListOptions list;
  auto* list_cmd = app.add_subcommand("list", "list the operators of this build (no GPU needed)");
  cli::value_name(list_cmd->add_option("--filter", list.filter, "globs over operator ids, comma-separated"), "GLOBS");
  cli::value_name(list_cmd->add_option("--dtype", list.dtypes, "comma-separated dtypes"), "LIST")->delimiter(',');
  cli::value_name(list_cmd->add_option("--json", list.json_path, "write the operators as JSON (schema archbench.list v1); - for stdout"), "FILE");

  cli::InspectOptions inspect;
  auto* inspect_cmd = app.add_subcommand("inspect", "list the SASS/PTX images and kernels in binaries; predict devices (no GPU needed)");
  cli::value_name(inspect_cmd->add_option("files", inspect.files, "ELF executables, shared libraries, objects, fatbin or cubin files"), "FILE...")->required();
  inspect_cmd->add_flag("--kernels", inspect.kernels, "list every kernel with its images (and verdicts)");
  cli::value_name(inspect_cmd->add_option("--filter", inspect.filter, "glob over kernel names (demangled or mangled)"), "GLOBS");
  cli::value_name(inspect_cmd->add_option("--json", inspect.json_path, "write the inventory and verdicts as JSON (schema archbench.inspect v1); - for stdout"), "FILE");
  cli::value_name(inspect_cmd->add_option("--device", inspect.devices, "predict for a device: CC (8.9, 89, sm_89), CC@driver (12.0@12080), or a product (\"RTX 4090\", 4090, H100, V100)")->allow_extra_args(false), "DEVICE");
  cli::value_name(inspect_cmd->add_option("--driver", inspect.driver, "driver for devices given without one: CUDA version (12.8) or branch (580)"), "VERSION");
  cli::value_name(inspect_cmd->add_option("--fleet", inspect.fleet_path, "JSON file listing devices (see docs/inspect.md)"), "FILE");

  cli::ScanOptions scan;
  auto* scan_cmd = app.add_subcommand(
      "scan", "will this Python environment, wheel, container image or folder run on these GPUs? (no GPU needed)");
  scan_cmd->add_option("paths", scan.paths,
                       "directories (site-packages, venv, conda prefix, custom_nodes), wheels, container image archives "
                       "(docker save / OCI layout) or binaries; none: the environment of --python");
  cli::value_name(scan_cmd->add_option("--python", scan.python, "the interpreter whose environment to scan when no PATH is given (default python3)"), "EXE");
  // One value per --device (repeat it for more), so that a path after it stays a path.
  cli::value_name(scan_cmd->add_option("--device", scan.devices,
                                       "judge for a device: CC (8.9), CC@driver (12.0@570), or a product (\"RTX 5090@570\"); "
                                       "repeatable; default: the GPUs present with their driver")->allow_extra_args(false),
                  "DEVICE");
  cli::value_name(scan_cmd->add_option("--driver", scan.driver, "driver for devices given without one: CUDA version (12.8) or branch (570)"), "DRIVER");
  cli::value_name(scan_cmd->add_option("--fleet", scan.fleet_path, "JSON file listing devices (docs/inspect.md)"), "FILE");
  scan_cmd->add_flag("--files", scan.files, "list every file with device code under its package");
  scan_cmd->add_flag("--kernels", scan.kernels, "name kernels (decompresses every image; slower) and judge kernel by kernel");
  cli::value_name(scan_cmd->add_option("--json", scan.json_path, "write the scan as JSON (schema archbench.scan v1); '-' for stdout"), "FILE");
  cli::value_name(scan_cmd->add_option("--markdown", scan.markdown_path, "write a Markdown summary (for a CI job summary)"), "FILE");
  cli::value_name(scan_cmd->add_option("--threads", scan.threads, "files read at once (default: one per hardware thread)"), "N");
  scan_cmd->add_flag("-q,--quiet", scan.quiet, "no progress on stderr");

  cli::HistoryOptions hist;
  auto* history_cmd = app.add_subcommand("history", "a store of runs per runner: record, merge, list, gate on change points");
  history_cmd->require_subcommand(1);
  auto* history_add = history_cmd->add_subcommand("add", "record runs (archbench run --json) in the store");
  history_add->add_option("runs", hist.files, "run results")->required();
  auto* history_merge = history_cmd->add_subcommand("merge", "copy the runs of other stores that this one lacks");
  history_merge->add_option("stores", hist.files, "other stores")->required();
  auto* history_list = history_cmd->add_subcommand("list", "the runners and their runs");
  auto* history_check = history_cmd->add_subcommand("check", "change points in the newest runs; exit 1 on a slowdown or a new failure");
  history_check->add_option("--recent", hist.recent_runs, "steps among each runner's newest N runs (default 14)");
  history_check->add_option("--min-step", hist.min_step, "the smallest step that counts (default 0.03 = 3%)");
  history_check->add_option("--json", hist.json_path, "write the steps (schema archbench.history.check v1); - for stdout");
  history_check->add_option("--markdown", hist.markdown_path, "write a Markdown summary (for a CI job summary)");
  cli::value_name(history_check->add_option("--html", hist.html_path,
                                            "write the trend page: each stepped series with its change points"), "FILE");
  for (auto* c : {history_add, history_merge, history_list, history_check}) {
    c->add_option("--store", hist.store, "the store (SQLite file; default archbench-history.sqlite)");
  }

  cli::ArchListOptions al;
  auto* arch_list_cmd = app.add_subcommand(
      "arch-list", "what a TORCH_CUDA_ARCH_LIST / CMAKE_CUDA_ARCHITECTURES value builds, which GPUs it serves, its traps");
  arch_list_cmd->add_option("list", al.list, "the value, e.g. \"8.0;9.0a;12.0+PTX\" or \"80-real;90\"")->required();
  arch_list_cmd->add_option("--nvcc", al.nvcc, "the nvcc whose targets the list may name (default: PATH, /usr/local/cuda)");

  cli::FrameworkOptions fw;
  auto* framework_cmd = app.add_subcommand(
      "framework", "run the user's PyTorch at archbench's shapes: which backend ran, right, how fast, the fastest one");
  {
    framework_cmd->add_option("--python", fw.python, "the interpreter whose torch to run (default python3)");
    framework_cmd->add_option("--filter", fw.filter, "globs over framework op ids ('framework/sdpa/*') or their twins' ids");
    framework_cmd->add_option("--dtype", fw.dtypes, "only these dtypes (f32, tf32, f16, bf16)")->delimiter(',');
    framework_cmd->add_flag("--quick", fw.quick, "backends and correctness only, no timing");
    framework_cmd->add_flag("--list", fw.list, "list the framework ops and their archbench twins; run nothing");
    framework_cmd->add_option("--json", fw.json_path, "write the answer and verdicts (schema archbench.framework v1); - for stdout");
    cli::value_name(framework_cmd->add_option("--html", fw.html_path, "write a self-contained HTML page: backends, findings, steps"),
                    "FILE");
    framework_cmd->add_option("--probe", fw.probe, "the probe script (default: tools/framework/framework_probe.py of this build)");
    framework_cmd->add_option("--timeout", fw.timeout_s, "deadline of the whole probe in seconds (default 900)");
    framework_cmd->add_option("--seed", fw.seed, "seed of the inputs");
    framework_cmd->add_option("--ops", fw.plugin_files, "a plug-in file of your own ops (docs/framework.md); repeatable");
    framework_cmd->add_option("--steps", fw.steps,
                              "denoiser steps to run when diffusers imports: sd15-unet,sdxl-unet,sd3-mmdit,flux-dit (default "
                              "all; none: no step; never in --quick)");
    framework_cmd->add_option("--baseline", fw.baseline_path,
                              "an earlier run (--json) to gate against: exit 1 on an op that now fails, is wrong, is >10% "
                              "slower, or runs another backend");
    framework_cmd->add_option("--answer", fw.answer_path,
                              "judge a recorded answer (a probe's, or --json of an earlier run) instead of running the probe");
    framework_cmd->add_option("--disable-sdpa-backend", fw.disable_sdpa_backends,
                              "run the default dispatch without this SDPA backend (cudnn, flash, efficient, math): a forced "
                              "fallback, to see what it costs; repeatable");
  }

  cli::BaselineUpdateOptions update;
  auto* baseline_cmd = app.add_subcommand("baseline", "manage stored per-device baselines");
  baseline_cmd->require_subcommand(1);
  auto* update_cmd = baseline_cmd->add_subcommand("update", "store run results as the baseline of their device(s)");
  auto* from_opt = cli::value_name(update_cmd->add_option("--from", update.from, "results of archbench run --json; repeat to pool several runs (recommended: 8+)"), "FILE");
  cli::value_name(update_cmd->add_option("--from-history", update.from_history,
                      "a history store (SQLite file or PostgreSQL connection string): one baseline per runner, "
                      "<device-key>@<GPU UUID>.json, from its runs since its last change point"), "STORE")
      ->excludes(from_opt);
  cli::value_name(update_cmd->add_option("--min-runs", update.min_runs,
                      "with --from-history: the runs since the last change point a runner's baseline needs (default 5)"),
                  "N")->check(CLI::Range(size_t{2}, history::kKeptResultsPerRunner));
  cli::value_name(update_cmd->add_option("--dir", update.dir, "directory of <device-key>.json baselines (default: baselines)"), "DIR");
  cli::value_name(update_cmd->add_option("--out", update.out, "write exactly this file (results of one device only)"), "FILE");
  update_cmd->add_flag("--force", update.force, "replace a baseline of another device key or build, or an unreadable one");

  cli::CompareOptions cmp;
  auto* compare_cmd = app.add_subcommand("compare", "compare results with a baseline; non-zero exit on any regression");
  add_baseline_option(compare_cmd, cmp.baseline)->required();
  cli::value_name(compare_cmd->add_option("results", cmp.results, "results of archbench run --json"), "RESULTS")->required();
  add_thresholds_option(compare_cmd, cmp.thresholds);
  cli::value_name(compare_cmd->add_option("--json", cmp.json_path, "write the comparison as JSON (schema archbench.compare v1); - for stdout"), "FILE");
  cli::value_name(compare_cmd->add_option("--filter", cmp.filter, "compare only operators whose id matches these comma-separated globs (on both sides)"), "GLOBS");
  compare_cmd->add_flag("!--no-floor-correction", cmp.floor_correction,
                        "compare times as measured, without taking out the difference of the two machines' timer floors");
  cli::value_name(compare_cmd->add_option("--confirm", cmp.confirm,
                          "a later run of the slower operators (run --filter \"$(archbench compare ... --list-slower)\"): "
                          "a slowdown stands only if the re-run is slower too"), "FILE");
  compare_cmd->add_flag("--list-slower", cmp.list_slower,
                        "print only the ids of the operators judged slower, comma-separated, for run --filter; exit 0");

  cli::MergeOptions merge;
  auto* merge_cmd = app.add_subcommand("merge", "merge several devices' results into the fleet matrix: DIR/fleet.json, fleet.md, fleet.html");
  cli::value_name(merge_cmd->add_option("results", merge.results, "results of archbench run --json, one or more (one per device or build)"), "RESULTS...")->required();
  cli::value_name(merge_cmd->add_option("-o,--out", merge.out_dir, "directory to write fleet.json, fleet.md and fleet.html into"), "DIR")->required();
  cli::value_name(merge_cmd->add_option("--baselines", merge.baselines, "directory of <device-key>.json baselines: adds the change per device"), "DIR");
  add_thresholds_option(merge_cmd, merge.thresholds);

  cli::ReportOptions report;
  auto* report_cmd = app.add_subcommand("report", "write one run's results as a self-contained HTML report");
  cli::value_name(report_cmd->add_option("results", report.results, "results of archbench run --json"), "RESULTS")->required();
  cli::value_name(report_cmd->add_option("--html", report.html_path, "the HTML file to write"), "FILE")->required();
  add_baseline_option(report_cmd, report.baseline);
  add_thresholds_option(report_cmd, report.thresholds);

  cli::ResourcesOptions resources;
  auto* resources_cmd = app.add_subcommand(
      "resources", "write ctest's resource spec file for the visible GPUs (ctest -L gpu --resource-spec-file FILE -j <GPUs>)");
  cli::value_name(resources_cmd->add_option("--json", resources.json_path, "the spec file to write; - for stdout"), "FILE")->required();
  cli::value_name(resources_cmd->add_option("--slots", resources.slots, "GPU tests that may share one GPU at once (default 1)"), "N")
      ->check(CLI::Range(1, 64));
  cli::value_name(resources_cmd->add_option("--count", resources.count, "declare this many GPUs instead of probing the visible ones"), "N")
      ->check(CLI::Range(0, 1024));

  cli::WorkerOptions worker;
  auto* worker_cmd = app.add_subcommand("worker", "internal: one phase of a run in a fresh process");
  worker_cmd->group("");  // hidden from --help
  std::map<std::string, Phase> phases;
  for (Phase p : values_of(kPhases)) phases.emplace(phase_name(p), p);
  worker_cmd->add_option("--phase", worker.phase)->required()->transform(CLI::CheckedTransformer(phases));
  worker_cmd->add_option("--device", worker.device)->required();
  worker_cmd->add_option("--ids", worker.ids_path)->required();
  worker_cmd->add_option("--out", worker.out_path)->required();
  worker_cmd->add_option("--seed", worker.seed)->required();
  worker_cmd->add_flag("--hot-l2", worker.hot_l2);
  worker_cmd->add_option("--cuda-graph", worker.cuda_graph)->check(CLI::IsMember({"off", "auto", "all"}));
  worker_cmd->add_flag("--load-times", worker.load_times);
  worker_cmd->add_flag("--probe-only", worker.probe_only);
  worker_cmd->add_flag("--quick", worker.quick);

  cli::DoctorOptions doctor;
  auto* doctor_cmd = app.add_subcommand(
      "doctor", "check hardware & driver, runtime libraries, build images and the real workload; cause and fix per finding");
  cli::value_name(doctor_cmd->add_option("--check", doctor.check_files, "other binaries (libtorch_cuda.so, an extension .so, ...) to judge for every device present"), "FILE");
  doctor_cmd->add_flag("--jit-passes", doctor.jit_passes,
                       "also run the workload with CUDA_FORCE_PTX_JIT=1 (fresh JIT cache) and with CUDA_DISABLE_PTX_JIT=1 "
                       "(JIT cache disabled), in child processes");
  cli::value_name(doctor_cmd->add_option("--json", doctor.json_path, "write the checklist, manifest and operator results as JSON (schema archbench.doctor v1); - for stdout"), "FILE");
  doctor_cmd->add_flag("-q,--quiet", doctor.quiet,
                       "no per-operator progress of the workload layer on stderr (default: as archbench run)");
  cli::value_name(doctor_cmd->add_option("--filter", doctor.filter, "globs over operator ids, comma-separated, for the workload layer (default: every operator)"), "GLOBS");
  cli::value_name(doctor_cmd->add_option("--python", doctor.python, "the interpreter whose torch the framework check runs (default python3)"), "EXE");
  doctor_cmd->add_flag("!--no-framework", doctor.framework, "skip the framework check (the user's torch at the quick tier)");
  doctor_cmd->add_flag("--full", doctor.full,
                       "the workload layer at the benchmark shapes too (default: the quick tier, check shapes only, "
                       "as archbench run --quick)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    // "archbench nosuch --help": an unknown command, not a request for the top-level help.
    if (argc > 1 && argv[1][0] != '-') {
      try {
        (void)app.get_subcommand(argv[1]);
      } catch (const CLI::OptionNotFound&) {
        std::cerr << text::wrap_text("archbench: " + cli::leftover_message(app, {argv[1]}).value_or("unknown command") + "\n")
                  << "(`archbench --help` lists the commands)\n";
        return cli::kUsage;
      }
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string where = cli::command_path(app);
    std::cerr << text::wrap_text(where + ": " + e.what() + "\n") << "(`" << where << " --help` lists the options)\n";
    return cli::kUsage;
  }
  const CLI::App& given = cli::active_command(app);
  if (const auto leftover = cli::leftover_message(given, given.remaining()); leftover) {
    const std::string where = cli::command_path(app);
    std::cerr << text::wrap_text(where + ": " + *leftover + "\n") << "(`" << where << " --help` lists the options)\n";
    return cli::kUsage;
  }
  try {
    if (version) {
      std::cout << format_manifest(build_manifest());
      return cli::kOk;
    }
    if (*run_cmd) return cli::run_command(run);
    if (*list_cmd) return cli::list_command(list);
    if (*inspect_cmd) return cli::inspect_command(inspect);
    if (*scan_cmd) return cli::scan_command(scan);
    if (*framework_cmd) return cli::framework_command(fw);
    if (*arch_list_cmd) return cli::arch_list_command(al);
    if (*history_cmd) {
      hist.action = *history_add ? "add" : *history_merge ? "merge" : *history_list ? "list" : "check";
      return cli::history_command(hist);
    }
    if (*update_cmd) return cli::baseline_update_command(update);
    if (*compare_cmd) return cli::compare_command(cmp);
    if (*resources_cmd) return cli::resources_command(resources);
    if (*merge_cmd) return cli::merge_command(merge);
    if (*report_cmd) return cli::report_command(report);
    if (*worker_cmd) return cli::worker_command(worker);
    if (*doctor_cmd) return cli::doctor_command(doctor);
    std::cout << app.help();
    return cli::kUsage;
  } catch (const std::exception& e) {
    std::cerr << "archbench: internal error: " << e.what() << "\n";
    return cli::kInternal;
  }
}
