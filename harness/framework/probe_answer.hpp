// What the framework probe (tools/framework/framework_probe.py) answers, read from its JSON
// (archbench.framework.probe v1), and the verdicts archbench makes of it: which backend ran, whether
// the result is right, the fastest backend available, and the findings with cause and fix
// (docs/framework.md). The probe measures; this file judges, so that CI can judge recorded answers.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/framework/kernel_family.hpp"
#include "harness/framework/step_calls.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench::framework {

enum class ProbeStatus { Ok, NoTorch, TorchTooOld, TorchWithoutCuda, NoGpu, BadRequest, ProbeError };
inline constexpr auto kProbeStatuses = enum_names<ProbeStatus>({
    {ProbeStatus::Ok, "ok"},
    {ProbeStatus::NoTorch, "no-torch"},
    {ProbeStatus::TorchTooOld, "torch-too-old"},
    {ProbeStatus::TorchWithoutCuda, "torch-without-cuda"},
    {ProbeStatus::NoGpu, "no-gpu"},
    {ProbeStatus::BadRequest, "bad-request"},
    {ProbeStatus::ProbeError, "probe-error"},
});

// NotInstalled: an extension backend (xformers, flash_attn, sageattention) whose package is absent.
enum class VariantStatus { Ran, Refused, Failed, NotInstalled };
inline constexpr auto kVariantStatuses = enum_names<VariantStatus>({{VariantStatus::Ran, "ran"},
                                                                    {VariantStatus::Refused, "refused"},
                                                                    {VariantStatus::Failed, "failed"},
                                                                    {VariantStatus::NotInstalled, "not-installed"}});

// The attention packages the probe runs at the SDPA problems when they import, and how a user calls
// each (the fix when one is the fastest).
struct ExtensionBackend {
  std::string_view backend, call;
};
inline constexpr ExtensionBackend kExtensionBackends[] = {
    {"xformers", "xformers.ops.memory_efficient_attention"},
    {"flash_attn", "flash_attn.flash_attn_func"},
    {"sageattention", "sageattention.sageattn"},
};
// The extension of that backend name, or nullptr for the framework's own backends.
[[nodiscard]] const ExtensionBackend* extension_backend(std::string_view backend);

struct KernelTime {
  std::string name;
  double us = 0;  // GPU time of all its launches in the profiled call
  KernelFamily family = KernelFamily::Other;
};

// One op with one backend ("default": the framework's own dispatch; cudnn, flash, efficient, math
// forced; or an extension package's kernel).
struct Variant {
  std::string backend;
  VariantStatus status = VariantStatus::Failed;
  std::string reason;                 // refused or failed: the framework's words
  bool image_missing = false;         // "no kernel image is available" in the failure
  std::optional<double> rel_error;    // NaN when the output holds a NaN or an Inf
  std::optional<double> gpu_us;       // median, cold L2 (absent in the quick tier)
  std::optional<double> host_us;      // per call
  std::vector<KernelTime> kernels;    // longest first
  // The family that took most of the GPU time among those that do the op's work (a layout
  // conversion or an elementwise copy beside the conv is not "the backend").
  [[nodiscard]] KernelFamily main_family() const;
  [[nodiscard]] double family_us(KernelFamily f) const;
};

struct ProbeOp {
  std::string id, op, dtype, layout;
  std::string plugin;                  // the plug-in file a user's op came from
  std::vector<std::string> libraries;  // shared objects its plug-in's import loaded
  std::vector<Variant> variants;       // [0] is "default"
};

// One denoiser step of a real model (tools/framework/denoiser_steps.py).
struct DenoiserStep {
  std::string model, dtype;
  bool ran = false;
  std::string reason;
  double parameters = 0, build_s = 0;
  bool nan = false;
  std::optional<double> rel_error_vs_fp32, wall_ms, events_ms, gpu_busy_ms, launches;
  std::vector<KernelTime> kernels;
  std::vector<std::pair<std::string, std::optional<double>>> fixes_wall_ms;  // "channels_last" -> ms
  std::vector<std::string> notes;
  std::vector<StepCall> calls;  // the framework calls archbench has ops for, by shape, longest first
};

// What the probe ran as denoiser steps.
enum class StepsSource {
  NotAsked,     // no step was asked for (--quick, --steps none)
  Diffusers,    // the real models, built by diffusers
  Composite,    // diffusers did not import: composites of the models' ops (tools/framework/composite_steps.py)
  NoDiffusers,  // diffusers did not import and nothing ran (answers of probes before the composites)
};
inline constexpr auto kStepsSources = enum_names<StepsSource>({
    {StepsSource::NotAsked, ""},
    {StepsSource::Diffusers, "ok"},
    {StepsSource::Composite, "composite"},
    {StepsSource::NoDiffusers, "no-diffusers"},
});

struct ProbeAnswer {
  ProbeStatus status = ProbeStatus::ProbeError;
  std::string reason;
  std::string torch_version, torch_cuda, torch_file, python;
  std::optional<int> cudnn;
  std::string device_name, device_cc;
  std::vector<ProbeOp> ops;
  std::vector<std::string> loaded_libraries;
  std::vector<std::string> disabled_sdpa_backends;
  double seconds = 0;
  StepsSource steps_source = StepsSource::NotAsked;
  std::string steps_reason, diffusers_version;  // why not diffusers (Composite, NoDiffusers); its version
  std::vector<DenoiserStep> steps;
};

// From the probe's answer or from `archbench framework --json` (the answer with verdicts added).
// Throws std::runtime_error naming what is wrong for JSON that is not a probe answer.
[[nodiscard]] ProbeAnswer parse_probe_answer(const nlohmann::json& j);

enum class FindingKind { DefaultSlower, BackendRefused, LayoutConversion, Failed, ImageMissing, WrongResult };
inline constexpr auto kFindingKinds = enum_names<FindingKind>({
    {FindingKind::DefaultSlower, "default-slower"},
    {FindingKind::BackendRefused, "backend-refused"},
    {FindingKind::LayoutConversion, "layout-conversion"},
    {FindingKind::Failed, "failed"},
    {FindingKind::ImageMissing, "image-missing"},
    {FindingKind::WrongResult, "wrong-result"},
});

struct Finding {
  FindingKind kind;
  std::string what, fix;
  [[nodiscard]] bool fails() const;  // failed, image missing, wrong: the op does not work
};

struct FindingRules {
  double slower_than_fastest = 0.10;  // the default dispatch more than 10% slower than the fastest backend
  double layout_share = 0.05;         // layout conversions over 5% of the op's GPU time
};

enum class Check { Pass, Wrong, NotChecked };

struct OpVerdict {
  const ProbeOp* op = nullptr;
  Check check = Check::NotChecked;
  std::optional<double> tolerance;
  const Variant* fastest = nullptr;  // among the variants that ran and were timed (and right)
  std::vector<Finding> findings;
};

[[nodiscard]] OpVerdict judge_op(const ProbeOp& op, const FindingRules& rules = {});

}  // namespace archbench::framework
