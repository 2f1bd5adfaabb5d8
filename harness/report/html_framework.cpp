#include "harness/report/html_framework.hpp"

#include <fmt/format.h>

#include "harness/report/html_bar_chart.hpp"
#include "harness/report/html_escape.hpp"
#include "harness/report/html_page.hpp"

namespace archbench::html {
namespace {

using framework::Check;
using framework::VariantStatus;

std::string us(const std::optional<double>& v) { return v ? fmt::format("{:.1f}", *v) : "-"; }

// What a variant did, in words: the family it ran, or why it did not.
std::string outcome(const framework::Variant& v) {
  switch (v.status) {
    case VariantStatus::Ran: return std::string(framework::family_name(v.main_family()));
    case VariantStatus::Refused: return "refused";
    case VariantStatus::NotInstalled: return "not installed";
    case VariantStatus::Failed: return v.image_missing ? "no image" : "failed";
  }
  return "failed";
}

// One bar per backend that ran and was timed: the default dispatch dark, the fastest green, the rest
// light; backends that did not run are listed under the chart with their reason.
std::string backend_chart(const framework::ProbeOp& op, const framework::OpVerdict& v) {
  std::vector<Bar> bars;
  std::string absent;
  for (const auto& var : op.variants) {
    if (var.status == VariantStatus::Ran && var.gpu_us) {
      const bool is_default = &var == &op.variants.front();
      bars.push_back({fmt::format("{} ({})", var.backend, framework::family_name(var.main_family())), *var.gpu_us,
                      std::nullopt, &var == v.fastest ? "#59a14f" : is_default ? "#4e79a7" : "#bab0ac",
                      fmt::format("{}: {:.1f} us GPU, {} us host per call", var.backend, *var.gpu_us, us(var.host_us))});
    } else if (var.status != VariantStatus::Ran) {
      absent += fmt::format("<li><b>{}</b> {}{}</li>", escape(var.backend), escape(outcome(var)),
                            var.reason.empty() ? "" : ": " + escape(var.reason));
    }
  }
  std::string out = bars.size() > 1 ? svg_bar_chart(bars, " us", 0) : "";
  if (!absent.empty()) out += "<ul class=\"note\">" + absent + "</ul>";
  return out;
}

}  // namespace

std::string framework_page(const framework::ProbeAnswer& a, const std::vector<framework::OpVerdict>& verdicts) {
  std::string b = fmt::format("<h1>archbench framework: {} on {}</h1>\n", escape("torch " + a.torch_version),
                              escape(a.device_name + " (" + a.device_cc + ")"));
  b += fmt::format("<p>CUDA {} &middot; cuDNN {} &middot; Python {} &middot; {} ops in {:.1f} s{}</p>\n",
                   escape(a.torch_cuda), a.cudnn ? std::to_string(*a.cudnn) : "none", escape(a.python), a.ops.size(),
                   a.seconds,
                   a.disabled_sdpa_backends.empty()
                       ? ""
                       : " &middot; SDPA backends disabled: " + escape(fmt::format("{}", fmt::join(a.disabled_sdpa_backends, ", "))));
  b += "<p class=\"legend\"><span style=\"background:#4e79a7;color:#fff\">default dispatch</span>"
       "<span style=\"background:#59a14f;color:#fff\">fastest</span><span style=\"background:#bab0ac\">other backend</span></p>\n";

  std::string findings;
  for (size_t i = 0; i < a.ops.size(); ++i) {
    for (const auto& f : verdicts[i].findings) {
      findings += fmt::format("<tr><td><code>{}</code></td><td class=\"{}\">{}</td><td>{}</td><td>{}</td></tr>\n",
                              escape(a.ops[i].id), f.fails() ? "regression" : "", escape(name_of(framework::kFindingKinds, f.kind)),
                              escape(f.what), escape(f.fix));
    }
  }
  b += "<h2>Findings</h2>\n";
  b += findings.empty() ? "<p>None: every op ran, right, with its fastest backend.</p>\n"
                        : "<table><tr><th>op</th><th>finding</th><th>what</th><th>fix</th></tr>\n" + findings + "</table>\n";

  b += "<h2>Ops</h2>\n<table><tr><th>op</th><th>default ran</th><th>check</th><th>GPU us</th><th>host us</th>"
       "<th>fastest</th><th>x</th></tr>\n";
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const auto& op = a.ops[i];
    const auto& v = verdicts[i];
    const auto& def = op.variants.front();
    const std::string check = v.check == Check::Pass ? fmt::format("ok {:.1e}", def.rel_error.value_or(0))
                              : v.check == Check::Wrong ? fmt::format("WRONG {:.1e}", def.rel_error.value_or(NAN))
                                                        : "-";
    const bool slower = v.fastest && v.fastest != &def;
    b += fmt::format("<tr><td><code>{}</code></td><td class=\"{}\">{}</td><td class=\"{}\">{}</td><td class=\"num\">{}</td>"
                     "<td class=\"num\">{}</td><td>{}</td><td class=\"num{}\">{}</td></tr>\n",
                     escape(op.id), def.status == VariantStatus::Ran ? "st-library" : "st-missing", escape(outcome(def)),
                     v.check == Check::Wrong ? "st-wrong" : "", escape(check), us(def.gpu_us), us(def.host_us),
                     escape(v.fastest ? v.fastest->backend : "-"), slower ? " regression" : "",
                     v.fastest && def.gpu_us ? fmt::format("{:.2f}", *def.gpu_us / *v.fastest->gpu_us) : "-");
  }
  b += "</table>\n";

  std::string charts;
  for (size_t i = 0; i < a.ops.size(); ++i) {
    if (a.ops[i].variants.size() < 2) continue;
    charts += fmt::format("<h3><code>{}</code></h3>\n", escape(a.ops[i].id)) + backend_chart(a.ops[i], verdicts[i]);
  }
  if (!charts.empty()) b += "<h2>Backends, GPU time per call</h2>\n" + charts;

  const bool composite = a.steps_source == framework::StepsSource::Composite;
  if ((a.steps_source == framework::StepsSource::Diffusers || composite) && !a.steps.empty()) {
    b += composite ? "<h2>Denoiser steps: composites of each model's ops (torch.nn only, random weights)</h2>\n"
                     "<p class=\"note\">" + escape(a.steps_reason) + "; pip install diffusers for the real models.</p>\n"
                   : fmt::format("<h2>Denoiser steps (diffusers {}, published configs, random weights)</h2>\n",
                                 escape(a.diffusers_version));
    b += "<table><tr><th>model</th><th>dtype</th><th>wall ms</th><th>GPU busy ms</th><th>launches</th>"
         "<th>error vs fp32</th></tr>\n";
    std::string fixes;
    for (const auto& d : a.steps) {
      b += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                       "<td class=\"{}\">{}</td></tr>\n",
                       escape(d.model), escape(d.dtype), us(d.wall_ms), us(d.gpu_busy_ms),
                       d.launches ? fmt::format("{:.0f}", *d.launches) : "-", d.nan || !d.ran ? "st-wrong" : "",
                       !d.ran ? "failed: " + escape(d.reason)
                              : d.nan ? std::string("NaN") : fmt::format("{:.1e}", d.rel_error_vs_fp32.value_or(NAN)));
      if (!d.ran || !d.wall_ms) continue;
      std::vector<Bar> bars{{"as built", *d.wall_ms, std::nullopt, "#4e79a7", "the step as built"}};
      for (const auto& [fix, ms] : d.fixes_wall_ms) {
        if (ms) bars.push_back({fix, *ms, std::nullopt, *ms < *d.wall_ms * 0.95 ? "#59a14f" : "#bab0ac", fix});
      }
      fixes += fmt::format("<h3>{}: wall time per step with each fix</h3>\n", escape(d.model)) + svg_bar_chart(bars, " ms", 0);
    }
    b += "</table>\n" + fixes;
  } else if (a.steps_source != framework::StepsSource::NotAsked) {
    b += "<h2>Denoiser steps</h2>\n<p class=\"note\">Not run: " + escape(a.steps_reason) + "</p>\n";
  }
  return page("archbench framework: " + a.device_name, b);
}

}  // namespace archbench::html
