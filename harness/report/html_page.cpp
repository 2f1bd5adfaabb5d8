#include "harness/report/html_page.hpp"

#include "harness/report/html_escape.hpp"

namespace archbench::html {
namespace {

constexpr std::string_view kStyle = R"css(
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em; color: #1b1f24; background: #fff; }
h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.2em; margin: 1.4em 0 .4em; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 1.05em; margin: 1em 0 .3em; }
table { border-collapse: collapse; margin: .4em 0; } th, td { border: 1px solid #d0d7de; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12px; }
.st-sass { background: #c7ecd0; } .st-library { background: #cfe3f7; } .st-ptx-jit { background: #fbe7a6; }
.st-unsupported { background: #e4e6e8; } .st-none { background: #fff; }
.st-missing, .st-ptx-too-new, .st-jit-disabled, .st-error, .st-library-error, .st-wrong { background: #f7c1c1; }
.regression { color: #b3261e; font-weight: 600; } .improvement { color: #1a7f37; }
.legend span { display: inline-block; padding: 0 6px; margin-right: 4px; border: 1px solid #d0d7de; }
.note { color: #57606a; } svg { display: block; margin: .4em 0; } svg text { font: 11px system-ui, sans-serif; fill: #1b1f24; }
)css";

}  // namespace

std::string page(std::string_view title, std::string_view body) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>";
  out += escape(title);
  out += "</title>\n<style>";
  out += kStyle;
  out += "</style></head>\n<body>\n";
  out += body;
  out += "\n</body></html>\n";
  return out;
}

std::string status_class(const OperatorVerdict& verdict) {
  if (verdict.is(ImageOutcome::NotProbed)) return "st-none";
  if (verdict.outcome == OperatorVerdict::Outcome::Absent) return "st-error";
  return "st-" + std::string(verdict.name());
}

std::string status_color(const OperatorVerdict& verdict) {
  if (verdict.outcome != OperatorVerdict::Outcome::Image) return "#e06666";  // errors, wrong results, absent
  switch (verdict.image) {
    case ImageOutcome::Sass: return "#7bc98f";
    case ImageOutcome::Library: return "#8fb9e6";
    case ImageOutcome::PtxJit: return "#f2cc4f";
    case ImageOutcome::Unsupported: return "#c4c8cc";
    case ImageOutcome::NotProbed:
    case ImageOutcome::NoDeviceCode: return "#ffffff";
    case ImageOutcome::Partial:
    case ImageOutcome::Missing:
    case ImageOutcome::NeedsNewerDriver:
    case ImageOutcome::JitDisabled:
    case ImageOutcome::LibraryError: break;
  }
  return "#e06666";
}

std::string status_legend() {
  using Outcome = OperatorVerdict::Outcome;
  std::string s;
  for (const OperatorVerdict v : {OperatorVerdict{Outcome::Image, ImageOutcome::Sass}, OperatorVerdict{Outcome::Image, ImageOutcome::Library},
                                  OperatorVerdict{Outcome::Image, ImageOutcome::PtxJit}, OperatorVerdict{Outcome::Image, ImageOutcome::Unsupported},
                                  OperatorVerdict{Outcome::Image, ImageOutcome::Missing}, OperatorVerdict{Outcome::Wrong, ImageOutcome::NotProbed}}) {
    s += "<span class=\"" + status_class(v) + "\">" + std::string(v.name()) + "</span>";
  }
  return s;
}

}  // namespace archbench::html
