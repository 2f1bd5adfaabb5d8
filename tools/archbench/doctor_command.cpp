// archbench doctor [--check FILE...] [--jit-passes] [--json FILE] [--filter GLOB]
//
// The four-layer environment check, each finding PASS / WARN / FAIL / SKIP, and every non-PASS
// with its cause and its fix (and the root causes of docs/reference/field-causes.md it is an
// instance of, by id). The checks, by layer (check ids in brackets, as in the JSON):
//
// 1. hardware & driver (harness/doctor/hardware_layer): the device count with the driver error
//    decoded (35 no/old driver, 34 stub, 100 no device, 803 module mismatch, 999, ...) [device-count];
//    /dev/nvidia* nodes and their permissions [device-nodes]; /proc/driver/nvidia/version against
//    the user-space driver (libcuda's file name or NVML) [kernel-module]; the driver's CUDA version
//    against this runtime's [driver-cuda-version]; NVML [nvml]; per GPU: compute mode, MIG mode
//    and pending changes, persistence, clock-event reasons, ECC / row remapping [compute-mode, mig,
//    persistence, clock-events, ecc]; CUDA_VISIBLE_DEVICES, judged statically (malformed,
//    negative, duplicate, out-of-range, UUID/MIG syntax, mixed lists) [visible-devices] and
//    CUDA_DEVICE_ORDER [device-order]; container hints (--gpus, NVIDIA_VISIBLE_DEVICES,
//    NVIDIA_DRIVER_CAPABILITIES) [container].
// 2. runtime (harness/doctor/runtime_layer): the CUDA libraries mapped into this process after
//    CUDA initialised, with paths and versions [loaded-libraries]; a library loaded twice
//    [duplicate:<lib>]; a stub libcuda loaded or reachable [stub-libcuda]; other versions reachable
//    through LD_LIBRARY_PATH or the loader cache [other-copies:<lib>]; the loader cache itself when
//    ldconfig is absent [loader-cache]; loaded cuBLAS/cuDNN against their headers and the runtime
//    [library-versions]; variables that change CUDA's behaviour [env:<NAME>, environment].
// 3. build (harness/doctor/build_layer), per device: the declared arch list [build-targets]; the
//    kernels this executable really holds [own-kernels]; the loaded cuBLAS/cuDNN files and cuDNN's
//    sub-libraries [library-images]; every --check FILE, PTX ISA against this driver included
//    [check-file].
// 4. workload (harness/doctor/workload_layer), per device: every operator x dtype in a
//    CUDA_LAUNCH_BLOCKING=1 worker, checked against its float64 reference [operators], failures
//    grouped by cause with the temporary workaround (another dtype, the library twin, the CPU)
//    [operators-failed], PTX-JIT-only operators [operators-jit]; with --jit-passes, a
//    CUDA_DISABLE_PTX_JIT=1 + CUDA_CACHE_DISABLE=1 pass proving SASS [no-jit], a
//    CUDA_FORCE_PTX_JIT=1 pass with a fresh CUDA_CACHE_PATH proving PTX [forced-jit,
//    forced-jit-libraries] and the first-launch JIT cost per operator [jit-cost]. These passes run
//    in worker processes, since the variables must be set before CUDA starts; they load every
//    kernel and probe its image (cudaFuncGetAttributes) but do not repeat the correctness run,
//    which the blocking pass did (so they take seconds, not the blocking pass's minutes). The
//    user's framework (harness/doctor/framework_check): python3's (or --python's) torch through
//    `archbench framework`'s probe at the quick tier [framework]; --no-framework skips it.
//
// Output: the environment manifest (archbench, build targets, toolkit, compiler, OS, container,
// driver, kernel module, runtime, cuBLAS, cuDNN, devices, variables), the checklist, a summary
// line; --json FILE writes all of it atomically (schema "archbench.doctor" v1) with every
// operator result of every pass.
//
// Exit codes, first match wins:
//   3  a FAIL in the hardware & driver layer: no usable CUDA driver or device (the build, runtime
//      and workload layers still report what they can);
//   5  a --check FILE cannot be read or is not an ELF / fatbin / cubin;
//   1  a FAIL in the runtime, build or workload layer (an operator without an image, a wrong
//      result, a library loaded twice, mismatched library versions, ...);
//   0  everything else: PASS, WARN and SKIP only (warnings explain themselves but do not fail);
//   2  usage error (unknown option, --filter matching no operator);
//   4  archbench itself failed (a worker could not be started, the JSON could not be written).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "harness/device/environment.hpp"
#include "harness/device/nvml.hpp"
#include "harness/vendor/cuda_libraries.hpp"
#include "harness/doctor/build_layer.hpp"
#include "harness/doctor/framework_check.hpp"
#include "harness/doctor/checklist.hpp"
#include "harness/doctor/hardware_layer.hpp"
#include "harness/doctor/python_stack.hpp"
#include "harness/doctor/report.hpp"
#include "harness/doctor/runtime_layer.hpp"
#include "harness/doctor/workload_layer.hpp"
#include "harness/framework/framework_op.hpp"
#include "harness/framework/probe_answer.hpp"
#include "harness/ops/registry.hpp"
#include "tools/archbench/framework_probe_runner.hpp"
#include "harness/manifest/build_manifest.hpp"
#include "harness/ops/registry.hpp"
#include "harness/result/result_json.hpp"
#include "harness/run/error_oracle.hpp"
#include "harness/run/phases.hpp"
#include "tools/archbench/cli_format.hpp"
#include "tools/archbench/commands.hpp"
#include "tools/archbench/shared_options.hpp"
#include "tools/archbench/doctor_pass.hpp"
#include "tools/archbench/exit_codes.hpp"
#include "tools/archbench/json_output.hpp"
#include "tools/archbench/selection.hpp"
#include "tools/archbench/temp_dir.hpp"
#include "tools/archbench/worker_process.hpp"

namespace archbench::cli {
namespace {

// archbench doctor: the four-layer environment check (the exit codes: above).
struct DoctorOptions {
  std::vector<std::string> check_files;  // --check: other binaries to judge for every device present
  bool jit_passes = false;               // also the forced-JIT and no-JIT workload passes
  std::string json_path;
  std::string filter = "*";              // operators of the workload layer
  bool quiet = false;                    // no per-operator progress on stderr
  bool full = false;                     // the workload at benchmark shapes too (default: the quick tier)
  std::string python = "python3";        // whose torch the framework check probes
  bool framework = true;                 // the framework check [framework] (harness/doctor/framework_check)
};

using doctor::Diagnosis;

nlohmann::json pass_to_json(int device, const std::string& name, const doctor::PassResults& p) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& r : p.results) ops.push_back(r);
  return {{"device", device}, {"pass", name}, {"failure", p.failure}, {"load_ms", p.load_ms},
          {"seconds", p.seconds}, {"operators", ops}};
}

// Each workload pass says how long it took (the JIT passes can take minutes on a large build).
void say_pass_time(int device, const std::string& name, const doctor::PassResults& p) {
  std::cerr << fmt::format("archbench doctor: device {}: {} pass: {} operator(s) in {:.1f} s\n", device, name,
                           p.results.size(), p.seconds);
}

std::pair<int, std::string> exit_code_for(Diagnosis d) {
  switch (d) {
    case Diagnosis::NoDevice: return {kNoDevice, "no usable CUDA driver or device"};
    case Diagnosis::BadInput: return {kBadInput, "a --check file cannot be read"};
    case Diagnosis::Failed: return {kOperatorFailed, "FAIL in the runtime, build or workload layer"};
    case Diagnosis::Healthy: break;
  }
  return {kOk, "healthy"};
}


// The framework check: the probe at the quick tier over every framework op, judged as `archbench
// framework` judges it. Returns the probe's answer for the JSON (null when there was none).
nlohmann::json check_framework(const std::string& python, doctor::Checklist& checklist) {
  doctor::FrameworkCheckInput in;
  in.python = python;
  FrameworkOptions fo;
  fo.python = python;
  fo.quick = true;
  fo.steps = "none";
  fo.timeout_s = 300;
  nlohmann::json raw;
  try {
    const ProbeRun run = run_framework_probe(framework::framework_ops(registry().select("*", {})), fo);
    if (run.outcome == ProbeRun::Outcome::Timeout) in.not_run = "it ran past its 300 s deadline";
    if (run.outcome == ProbeRun::Outcome::NoInterpreter) in.not_run = "cannot run " + python;
    if (in.not_run.empty()) {
      raw = nlohmann::json::parse(run.text);
      in.answer = framework::parse_probe_answer(raw);
      for (const auto& op : in.answer.ops) in.verdicts.push_back(framework::judge_op(op));
    }
  } catch (const std::exception& e) {
    in.not_run = std::string("its answer is unreadable: ") + e.what();
    raw = nullptr;
  }
  doctor::check_framework(in, checklist);
  return raw;
}

int doctor_command(const DoctorOptions& o) {
  const TextToStderr text_to_stderr(is_stdout(o.json_path));  // --json -: JSON alone on stdout
  const auto selected = select_or_explain("doctor", o.filter, {});
  if (!selected) return kUsage;
  const std::vector<const Operator*>& ops = *selected;
  const BuildManifest& build = build_manifest();
  // CUDA initialises here (libcuda maps now, when there is one); the parent never creates a
  // context: the workload runs in worker processes.
  const Environment env = probe_environment();
  (void)Nvml::instance();  // loaded before /proc/self/maps is read, so that it is listed too
  // cuBLAS and cuDNN open on first use (harness/vendor/cuda_libraries.cpp): open them now, so that
  // the runtime layer sees which files this process would use.
  if (const std::string missing = load_cuda_libraries(); !missing.empty()) {
    std::cerr << "archbench doctor: " << missing << "\n";
  }
  const doctor::RuntimeFacts rt = doctor::gather_runtime_facts(env.runtime, env.driver);
  const doctor::HardwareFacts hw = doctor::gather_hardware_facts(env, rt);

  doctor::Checklist checklist;
  doctor::check_hardware(hw, checklist);
  doctor::check_runtime(rt, checklist);

  std::vector<std::string> mapped;
  for (const auto& c : rt.mapped) mapped.push_back(c.real_path);
  doctor::BuildInputs build_in;
  build_in.build = &build;
  build_in.env = &env;
  build_in.libraries = doctor::library_files_to_judge(mapped);
  build_in.check_files = o.check_files;
  if (env.usable())
    std::cerr << "archbench doctor: reading the kernel images of archbench and the loaded libraries...\n";
  doctor::check_build(build_in, checklist);
  // The user's own stack: the packages of the active Python environment (as archbench scan).
  if (env.usable()) std::cerr << "archbench doctor: reading the packages of python3's environment...\n";
  doctor::check_python_stack(doctor::gather_python_stack(env, std::atoi(build.nvcc_version.c_str())), checklist);

  nlohmann::json workload = nlohmann::json::array();
  bool worker_start_failed = false;
  if (const Selection sel = selection_of(o.filter, {}, ops.size()); sel.narrowed()) {
    // A narrowed workload is not a healthy whole: the finding keeps it from reading as one.
    checklist.add(doctor::Finding(doctor::Layer::Workload, "selection", doctor::Outcome::Warn,
                                  "the workload layer checks " + sel.describe(),
                                  "--filter narrowed the workload: the operators left out were not run",
                                  "run archbench doctor without --filter to check every operator"));
  }
  if (!env.usable()) {
    checklist.add(
        doctor::Finding(doctor::Layer::Workload, "operators", doctor::Outcome::Skip,
                        fmt::format("no usable device: the {} operator(s) of this build were not run", ops.size())));
  } else {
    const uint64_t seed = std::random_device{}() | (uint64_t{std::random_device{}()} << 32);
    // Per-operator progress on stderr, as in `archbench run` (the blocking pass takes minutes).
    RunProgress progress(stderr, RunProgress::detect(stderr, o.quiet), std::getenv("NO_COLOR") == nullptr);
    for (const auto& d : env.devices) {
      doctor::WorkloadInputs in;
      in.device = d;
      in.build = &build;
      try {
        std::cerr << fmt::format("archbench doctor: device {}: checking {} operator(s), blocking, {} (seed {})...\n",
                                 d.index, ops.size(), o.full ? "check and benchmark shapes" : "quick tier: check shapes",
                                 seed);
        in.blocking = run_doctor_pass({"check", d.index, ops, seed, {}, 0, false, "", !o.full, d.memory_bytes}, progress);
        say_pass_time(d.index, "blocking", in.blocking);
        workload.push_back(pass_to_json(d.index, "blocking", in.blocking));
        if (o.jit_passes) {
          std::cerr << fmt::format(
              "archbench doctor: device {}: no-JIT pass (CUDA_DISABLE_PTX_JIT=1, CUDA_CACHE_DISABLE=1)...\n", d.index);
          in.no_jit = run_doctor_pass({"no-jit",
                                       d.index,
                                       ops,
                                       seed,
                                       {{"CUDA_DISABLE_PTX_JIT", "1"},
                                        {"CUDA_CACHE_DISABLE", "1"},
                                        {"CUDA_FORCE_PTX_JIT", std::nullopt},
                                        {"CUDA_FORCE_JIT", std::nullopt},
                                        {"CUDA_DISABLE_JIT", std::nullopt}},
                                       0,
                                       true,
                                       ""},
                                      progress);
          say_pass_time(d.index, "no-jit", *in.no_jit);
          workload.push_back(pass_to_json(d.index, "no-jit", *in.no_jit));
          const TempDir cache("archbench-jit-cache", "temporary JIT cache directory");  // fresh and empty
          std::cerr << fmt::format(
              "archbench doctor: device {}: forced-JIT pass (CUDA_FORCE_PTX_JIT=1, CUDA_CACHE_PATH={})...\n", d.index,
              cache.path());
          in.forced_jit = run_doctor_pass({"forced-jit",
                                           d.index,
                                           ops,
                                           seed,
                                           {{"CUDA_FORCE_PTX_JIT", "1"},
                                            {"CUDA_CACHE_PATH", cache.path()},
                                            {"CUDA_CACHE_DISABLE", std::nullopt},
                                            {"CUDA_DISABLE_PTX_JIT", std::nullopt},
                                            {"CUDA_DISABLE_JIT", std::nullopt},
                                            {"CUDA_FORCE_JIT", std::nullopt}},
                                           300,
                                           true,
                                           ""},
                                          progress);
          say_pass_time(d.index, "forced-jit", *in.forced_jit);
          workload.push_back(pass_to_json(d.index, "forced-jit", *in.forced_jit));
        }
      } catch (const std::exception& e) {
        // The worker could not be started at all: archbench's own failure, not the environment's.
        std::cerr << "archbench doctor: " << e.what() << "\n";
        worker_start_failed = true;
        checklist.add(doctor::Finding(doctor::Layer::Workload, "worker", doctor::Outcome::Fail,
                                      fmt::format("device {}: the workload could not be run: {}", d.index, e.what()),
                                      "archbench could not start its worker process",
                                      "check /tmp space and process limits"));
        continue;
      }
      doctor::check_workload(in, checklist);
    }
  }

  nlohmann::json framework_answer;
  if (env.usable() && o.framework) {
    std::cerr << "archbench doctor: the framework check: " << o.python << "'s torch at the quick tier...\n";
    framework_answer = check_framework(o.python, checklist);
  }

  const auto [code, meaning] = exit_code_for(doctor::diagnose(checklist));
  const doctor::EnvironmentManifest manifest = doctor::environment_manifest(build, hw, rt);
  std::cout << "archbench doctor\n\n"
            << doctor::format_environment_manifest(manifest) << doctor::format_checklist(checklist)
            << doctor::format_summary(checklist, worker_start_failed ? kInternal : code, meaning);
  if (!o.json_path.empty()) {
    nlohmann::json j = doctor::doctor_to_json(manifest, checklist, worker_start_failed ? kInternal : code, meaning);
    j["build"] = build;
    j["environment"] = env;
    j["workload"] = workload;
    j["framework"] = framework_answer;  // the probe's answer, null when the check did not run
    // Paths and kernel names are bytes from the system: never let one invalid UTF-8 byte lose the report.
    if (!write_or_say("doctor", o.json_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n")) {
      return kInternal;
    }
  }
  return worker_start_failed ? kInternal : code;
}

}  // namespace

void add_doctor_command(CLI::App& app, Commands& commands) {
  auto [cmd, o] = add_command(app, commands, "doctor",
      "check hardware & driver, runtime libraries, build images and the real workload; cause and fix per finding", doctor_command);
  value_name(cmd->add_option("--check", o->check_files, "other binaries (libtorch_cuda.so, an extension .so, ...) to judge for every device present"), "FILE");
  cmd->add_flag("--jit-passes", o->jit_passes,
                "also run the workload with CUDA_FORCE_PTX_JIT=1 (fresh JIT cache) and with CUDA_DISABLE_PTX_JIT=1 "
                "(JIT cache disabled), in child processes");
  add_json_option(cmd, o->json_path, "the checklist, manifest and operator results", "archbench.doctor v1");
  cmd->add_flag("-q,--quiet", o->quiet, "no per-operator progress of the workload layer on stderr (default: as archbench run)");
  add_filter_option(cmd, o->filter, "operator ids, for the workload layer (default: every operator)");
  add_python_option(cmd, o->python, "torch the framework check runs");
  cmd->add_flag("!--no-framework", o->framework, "skip the framework check (the user's torch at the quick tier)");
  cmd->add_flag("--full", o->full,
                "the workload layer at the benchmark shapes too (default: the quick tier, check shapes only, "
                "as archbench run --quick)");
}

}  // namespace archbench::cli
