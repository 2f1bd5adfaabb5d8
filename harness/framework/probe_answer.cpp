#include "harness/framework/probe_answer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "harness/arch/compat.hpp"
#include "harness/ops/dtype.hpp"

namespace archbench::framework {
namespace {

using nlohmann::json;

template <typename Table>
auto enum_from(const Table& table, const std::string& s, const char* what) {
  if (const auto v = parse_name(table, s)) return *v;
  throw std::runtime_error(fmt::format("unknown {} '{}'", what, s));
}

std::optional<double> number(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) throw std::runtime_error(fmt::format("'{}' is not a number", key));
  return it->get<double>();
}

std::string text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Families that do an op's work, as opposed to what surrounds it (conversions, copies).
bool is_work(KernelFamily f) {
  return f != KernelFamily::LayoutConversion && f != KernelFamily::AtenElementwise && f != KernelFamily::Other;
}

}  // namespace

double Variant::family_us(KernelFamily f) const {
  double us = 0;
  for (const auto& k : kernels) us += k.family == f ? k.us : 0;
  return us;
}

KernelFamily Variant::main_family() const {
  KernelFamily best = KernelFamily::Other;
  double best_us = -1;
  for (const auto& [f, name] : kKernelFamilies) {
    const double us = family_us(f);
    if (us > 0 && is_work(f) && us > best_us) {
      best = f;
      best_us = us;
    }
  }
  if (best_us < 0 && !kernels.empty()) return kernels.front().family;  // only copies: say what ran
  return best;
}

ProbeAnswer parse_probe_answer(const json& j) {
  // The probe's answer itself, or archbench framework --json (the answer with verdicts added).
  const bool answer = j.is_object() && (j.value("schema", "") == "archbench.framework.probe" ||
                                        (j.value("schema", "") == "archbench.framework" &&
                                         j.value("probe_schema", "") == "archbench.framework.probe"));
  if (!answer) throw std::runtime_error("not an archbench.framework.probe answer");
  ProbeAnswer a;
  a.status = enum_from(kProbeStatuses, text(j, "status"), "probe status");
  a.reason = text(j, "reason");
  a.python = text(j, "python");
  if (const auto f = j.find("framework"); f != j.end() && f->is_object()) {
    a.torch_version = text(*f, "version");
    a.torch_cuda = text(*f, "cuda");
    a.torch_file = text(*f, "file");
    if (const auto c = number(*f, "cudnn")) a.cudnn = static_cast<int>(*c);
  }
  if (const auto d = j.find("device"); d != j.end() && d->is_object()) {
    a.device_name = text(*d, "name");
    a.device_cc = text(*d, "cc");
  }
  a.seconds = number(j, "seconds").value_or(0);
  for (const auto& lib : j.value("loaded_libraries", json::array())) {
    if (lib.is_string()) a.loaded_libraries.push_back(lib.get<std::string>());
  }
  for (const auto& b : j.value("disabled_sdpa_backends", json::array())) {
    if (b.is_string()) a.disabled_sdpa_backends.push_back(b.get<std::string>());
  }
  auto kernels_of = [](const json& list) {
    std::vector<KernelTime> out;
    for (const auto& k : list) {
      KernelTime kt{text(k, "name"), number(k, "us").value_or(0), KernelFamily::Other};
      kt.family = kernel_family(kt.name);
      out.push_back(std::move(kt));
    }
    return out;
  };
  if (const auto st = j.find("steps"); st != j.end() && st->is_object()) {
    const std::string source = text(*st, "status");
    if (const auto parsed = parse_name(kStepsSources, source)) a.steps_source = *parsed;
    else throw std::runtime_error("steps.status is '" + source + "', not ok, composite or no-diffusers");
    a.steps_reason = text(*st, "reason");
    a.diffusers_version = text(*st, "diffusers");
    for (const auto& m : st->value("models", json::array())) {
      DenoiserStep d;
      d.model = text(m, "model");
      d.dtype = text(m, "dtype");
      d.ran = text(m, "status") == "ran";
      d.reason = text(m, "reason");
      d.parameters = number(m, "parameters").value_or(0);
      d.build_s = number(m, "build_s").value_or(0);
      d.nan = m.value("nan", false);
      d.rel_error_vs_fp32 = number(m, "rel_error_vs_fp32");
      d.wall_ms = number(m, "wall_ms");
      d.events_ms = number(m, "events_ms");
      d.gpu_busy_ms = number(m, "gpu_busy_ms");
      d.launches = number(m, "launches");
      d.kernels = kernels_of(m.value("kernels", json::array()));
      // Bound first: items() of a temporary would outlive it (a range-for keeps the proxy, not the JSON).
      const json fixes = m.value("fixes_wall_ms", json::object());
      for (const auto& [fix, ms] : fixes.items()) {
        d.fixes_wall_ms.emplace_back(fix, ms.is_number() ? std::optional<double>(ms.get<double>()) : std::nullopt);
      }
      for (const auto& n : m.value("notes", json::array())) d.notes.push_back(n.get<std::string>());
      for (const auto& c : m.value("ops", json::array())) {
        if (!c.is_object()) continue;
        StepCall call{text(c, "op"), {}, std::nullopt, number(c, "us").value_or(0),
                      static_cast<int>(number(c, "calls").value_or(0))};
        if (const auto st = number(c, "stride")) call.stride = static_cast<int>(*st);
        for (const auto& shape : c.value("shapes", json::array())) {
          std::vector<long long> dims;
          if (shape.is_array()) {
            for (const auto& x : shape) dims.push_back(x.is_number_integer() ? x.get<long long>() : -1);
          }
          call.shapes.push_back(std::move(dims));
        }
        d.calls.push_back(std::move(call));
      }
      a.steps.push_back(std::move(d));
    }
  }
  for (const auto& o : j.value("ops", json::array())) {
    ProbeOp op{text(o, "id"), text(o, "op"), text(o, "dtype"), text(o, "layout"), text(o, "plugin"), {}, {}};
    for (const auto& lib : o.value("libraries", json::array())) {
      if (lib.is_string()) op.libraries.push_back(lib.get<std::string>());
    }
    for (const auto& v : o.value("variants", json::array())) {
      Variant var;
      var.backend = text(v, "backend");
      var.status = enum_from(kVariantStatuses, text(v, "status"), "variant status");
      var.reason = text(v, "reason");
      var.image_missing = parse_name(kImageOutcomes, text(v, "image")) == ImageOutcome::Missing;
      if (const auto it = v.find("rel_error"); it != v.end()) {
        var.rel_error = it->is_number() ? it->get<double>() : std::nan("");  // NaN is written as NaN or null
      }
      var.gpu_us = number(v, "gpu_us");
      var.host_us = number(v, "host_us");
      var.kernels = kernels_of(v.value("kernels", json::array()));
      op.variants.push_back(std::move(var));
    }
    if (op.variants.empty() || op.variants.front().backend != "default") {
      throw std::runtime_error(fmt::format("op {}: the first variant is not the default dispatch", op.id));
    }
    a.ops.push_back(std::move(op));
  }
  return a;
}

const ExtensionBackend* extension_backend(std::string_view backend) {
  for (const auto& e : kExtensionBackends) {
    if (e.backend == backend) return &e;
  }
  return nullptr;
}

bool Finding::fails() const {
  return kind == FindingKind::Failed || kind == FindingKind::ImageMissing || kind == FindingKind::WrongResult;
}

OpVerdict judge_op(const ProbeOp& op, const FindingRules& rules) {
  OpVerdict v;
  v.op = &op;
  const auto dtype = parse_dtype(op.dtype);
  if (dtype) v.tolerance = tolerance(*dtype);
  auto right = [&](const Variant& var) {
    return var.rel_error && !std::isnan(*var.rel_error) && (!v.tolerance || *var.rel_error <= *v.tolerance);
  };
  const Variant& def = op.variants.front();
  if (def.status == VariantStatus::Ran && def.rel_error) v.check = right(def) ? Check::Pass : Check::Wrong;
  for (const auto& var : op.variants) {
    if (var.status == VariantStatus::Ran && var.gpu_us && right(var) && (!v.fastest || *var.gpu_us < *v.fastest->gpu_us)) {
      v.fastest = &var;
    }
  }
  if (def.status == VariantStatus::Failed) {
    if (def.image_missing) {
      v.findings.push_back({FindingKind::ImageMissing, "no kernel image for this device: " + def.reason,
                            "a build of the framework (or the extension) that carries this device's SASS or PTX; "
                            "archbench scan names the library"});
    } else {
      v.findings.push_back({FindingKind::Failed, "the default dispatch failed: " + def.reason, ""});
    }
  }
  if (v.check == Check::Wrong) {
    v.findings.push_back({FindingKind::WrongResult,
                          fmt::format("relative error {:.2e} against float64, over the {:.0e} tolerance of {}",
                                      def.rel_error.value_or(NAN), v.tolerance.value_or(0), op.dtype),
                          "report it with the op, shape and versions; another backend may be right meanwhile"});
  }
  if (def.status == VariantStatus::Ran && def.gpu_us && v.fastest && v.fastest != &def &&
      *def.gpu_us > *v.fastest->gpu_us * (1 + rules.slower_than_fastest)) {
    v.findings.push_back({FindingKind::DefaultSlower,
                          fmt::format("the default dispatch ran {} in {:.1f} us; the {} backend ({}) takes {:.1f} us, "
                                      "{:.2f}x faster",
                                      family_name(def.main_family()), *def.gpu_us, v.fastest->backend,
                                      family_name(v.fastest->main_family()), *v.fastest->gpu_us,
                                      *def.gpu_us / *v.fastest->gpu_us),
                          fmt::format("{} for this shape; check its host cost too ({:.1f} vs {:.1f} us per call)",
                                      extension_backend(v.fastest->backend)
                                          ? fmt::format("call {}", extension_backend(v.fastest->backend)->call)
                                          : std::string("select it (torch.nn.attention.sdpa_kernel for SDPA)"),
                                      v.fastest->host_us.value_or(NAN), def.host_us.value_or(NAN))});
  }
  for (const auto& var : op.variants) {
    const ExtensionBackend* ext = extension_backend(var.backend);
    // An extension that takes other dtypes is no finding; one that is installed and breaks is.
    if (var.status == VariantStatus::Refused && ext == nullptr) {
      v.findings.push_back({FindingKind::BackendRefused, fmt::format("{} refused: {}", var.backend, var.reason), ""});
    }
    if (var.status == VariantStatus::Failed && ext != nullptr) {
      v.findings.push_back({var.image_missing ? FindingKind::ImageMissing : FindingKind::Failed,
                            fmt::format("{} is installed and failed: {}", var.backend, var.reason),
                            fmt::format("a build of {} for this torch, CUDA and GPU (its wheel's tags), or uninstall it "
                                        "so that nothing selects it", var.backend)});
    }
  }
  if (def.status == VariantStatus::Ran) {
    double all = 0;
    for (const auto& k : def.kernels) all += k.us;
    const double conv = def.family_us(KernelFamily::LayoutConversion);
    if (all > 0 && conv / all > rules.layout_share) {
      v.findings.push_back({FindingKind::LayoutConversion,
                            fmt::format("{:.0f}% of its GPU time ({:.1f} of {:.1f} us) is layout conversion", 100 * conv / all,
                                        conv, all),
                            "keep activations and weights in channels_last (x.to(memory_format=torch.channels_last), "
                            "model.to(memory_format=torch.channels_last))"});
    }
  }
  return v;
}

}  // namespace archbench::framework
