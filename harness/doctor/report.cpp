#include "harness/doctor/report.hpp"

#include <fmt/format.h>
#include <gnu/libc-version.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/arch/target.hpp"
#include "harness/doctor/text.hpp"
#include "harness/util/text_wrap.hpp"

namespace archbench::doctor {
namespace {

// The compiler that built this host code (archbench's own build).
std::string host_compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string os_name() {
  std::ifstream in("/etc/os-release");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("PRETTY_NAME=")) {
      std::string v = line.substr(12);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      return v;
    }
  }
  return "unknown (no /etc/os-release)";
}

std::string or_none(const std::string& s) { return s.empty() ? std::string("none") : s; }

const LibraryCopy* loaded(const RuntimeFacts& rt, std::string_view family) {
  for (const auto& c : rt.mapped) {
    if (c.family == family) return &c;
  }
  return nullptr;
}

constexpr size_t kDetailsShown = 10;
constexpr size_t kDetailLines = 4;  // a detail longer than this many lines ends in "..." (--json has it whole)

// "NAME=value" with a value too long for one line: shortened, saying how long the whole is.
std::string shorten_variable(const std::string& assignment, size_t columns) {
  if (text::width(assignment) <= columns) return assignment;
  const std::string note = fmt::format(" ({} characters; --json has it whole)", text::width(assignment));
  return text::shorten(assignment, columns > note.size() + 20 ? columns - note.size() : 20) + note;
}

bool is_variable(const std::string& s) {  // "CUDA_VISIBLE_DEVICES=0,1"
  const auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  return std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(eq),
                     [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; });
}

// The manifest's "variables" value, "A=1 B=x y C=2", back into its assignments: a new one starts at
// a space followed by an upper-case NAME=.
std::vector<std::string> split_variables(const std::string& joined) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 1; i <= joined.size(); ++i) {
    if (i == joined.size() || (joined[i - 1] == ' ' && is_variable(joined.substr(i, joined.find(' ', i) - i)))) {
      out.push_back(trim(joined.substr(start, i - start)));
      start = i;
    }
  }
  return out;
}

std::vector<std::string> cause_ids(const FieldCauses& causes) {
  std::vector<std::string> ids;
  for (const FieldCause c : causes) ids.emplace_back(to_string(c));
  return ids;
}

}  // namespace

EnvironmentManifest environment_manifest(const BuildManifest& build, const HardwareFacts& hw, const RuntimeFacts& rt) {
  EnvironmentManifest m;
  m.emplace_back("archbench",
                 build.archbench_version + " (" + build.git_revision + ", " + or_none(build.build_type) + ")");
  m.emplace_back("build targets",
                 fmt::format("arch list \"{}\" (from {}, {} grammar) -> SASS {} | PTX {} (ISA {})", build.arch_list,
                             build.arch_list_source, build.arch_grammar, or_none(arch::join_names(build.sass())),
                             or_none(arch::join_names(build.ptx())), build.ptx_isa) +
                     (build.kernel_arch_overrides.empty() ? std::string()
                                                          : "; per-file overrides " + build.kernel_arch_overrides));
  m.emplace_back("toolkit", "nvcc " + build.nvcc_version + "; cuBLAS " + build.cublas_header_version + " and cuDNN " +
                                build.cudnn_header_version + " headers");
  m.emplace_back("compiler", host_compiler());
  utsname u{};
  const bool have_uname = uname(&u) == 0;
  m.emplace_back("OS", os_name() +
                           (have_uname ? std::string(", Linux ") + u.release + " " + u.machine : std::string()) +
                           ", glibc " + gnu_get_libc_version());
  m.emplace_back("container", hw.in_container ? "yes (" + hw.container_evidence + ")" : "no");
  std::string driver = hw.env.driver.known() ? "CUDA " + hw.env.driver.str() : "none";
  if (!hw.libcuda_version.empty() && hw.libcuda_version.find('.') != std::string::npos)
    driver += ", libcuda " + hw.libcuda_version;
  else if (hw.nvml && !hw.nvml->driver_version.empty())
    driver += ", " + hw.nvml->driver_version;
  if (!hw.libcuda_path.empty()) driver += " (" + hw.libcuda_path + ")";
  m.emplace_back("driver", driver);
  const auto module = hw.kernel_module ? kernel_module_version(*hw.kernel_module) : std::nullopt;
  m.emplace_back("kernel module", hw.kernel_module ? module.value_or("unreadable version")
                                                   : "not loaded (no /proc/driver/nvidia/version)");
  const auto* cudart = loaded(rt, "libcudart");
  m.emplace_back("runtime", "CUDA " + rt.runtime.str() + (cudart ? " (" + cudart->real_path + ")" : std::string()));
  const auto* cublas = loaded(rt, "libcublas");
  m.emplace_back("cuBLAS", or_none(rt.cublas_version) + (cublas ? " (" + cublas->real_path + ")" : std::string()));
  const auto* cudnn = loaded(rt, "libcudnn");
  m.emplace_back("cuDNN", or_none(rt.cudnn_version) + (cudnn ? " (" + cudnn->real_path + ")" : std::string()));
  if (hw.env.devices.empty()) {
    m.emplace_back("devices", "none");
  } else {
    for (const auto& d : hw.env.devices) {
      m.emplace_back(fmt::format("device {}", d.index),
                     fmt::format("{} | CC {} | {} SMs | {:.1f} GiB | {}", d.name, d.cc.str(), d.sm_count,
                                 static_cast<double>(d.memory_bytes) / (1 << 30), d.uuid));
    }
  }
  std::vector<std::string> vars;
  for (const auto& [k, v] : rt.env) {
    if (k.starts_with("CUDA_") || k.starts_with("NVIDIA_") || k == "LD_LIBRARY_PATH" || k == "TORCH_CUDA_ARCH_LIST") {
      vars.push_back(k + "=" + v);
    }
  }
  m.emplace_back("variables", vars.empty() ? "none set" : join(vars, " "));
  return m;
}

std::string format_environment_manifest(const EnvironmentManifest& m) {
  std::string s = "environment manifest:\n";
  const std::string next(16, ' ');
  for (const auto& [k, v] : m) {
    const std::string first = fmt::format("  {:<14}", k);
    if (k != "variables" || v == "none set") {
      s += text::wrap(v, text::kColumns, first, next);
      continue;
    }
    const auto vars = split_variables(v);  // one a line, long values shortened
    for (size_t i = 0; i < vars.size(); ++i)
      s += (i == 0 ? first : next) + shorten_variable(vars[i], text::kColumns - next.size()) + "\n";
  }
  return s;
}

std::string format_checklist(const Checklist& c) {
  std::string s;
  int n = 0;
  for (const Layer layer : kLayers) {
    s += fmt::format("\n{}. {}\n", ++n, layer_title(layer));
    const auto findings = c.in(layer);
    if (findings.empty()) s += "  (no checks ran)\n";
    for (const Finding* f : findings) {
      const std::string indent(8, ' '), label_indent(15, ' ');
      s += text::wrap(f->summary, text::kColumns, fmt::format("  {}  [{}] ", outcome_name(f->outcome), f->check),
                      indent);
      if (!f->cause.empty()) s += text::wrap(f->cause, text::kColumns, indent + "cause: ", label_indent);
      if (!f->fix.empty()) s += text::wrap(f->fix, text::kColumns, indent + "fix:   ", label_indent);
      if (!f->field_causes.empty()) {
        const auto ids = cause_ids(f->field_causes);
        s += text::wrap(fmt::format("{} ({})", join(ids, ", "), kFieldCausesPage), text::kColumns,
                        indent + (ids.size() > 1 ? "root causes: " : "root cause: "), label_indent);
      }
      const size_t shown = std::min(f->details.size(), kDetailsShown);
      for (size_t i = 0; i < shown; ++i) {
        const std::string& d = f->details[i];
        s += is_variable(d) ? indent + "- " + shorten_variable(d, text::kColumns - indent.size() - 2) + "\n"
                            : text::wrap(d, text::kColumns, indent + "- ", indent + "  ", kDetailLines);
      }
      if (f->details.size() > shown)
        s += fmt::format("        - ... and {} more (see --json)\n", f->details.size() - shown);
    }
  }
  return s;
}

std::string format_summary(const Checklist& c, int exit_code, std::string_view meaning) {
  return fmt::format("\nsummary: {} FAIL, {} WARN, {} PASS, {} SKIP -> {} (exit {})\n", c.count(Outcome::Fail),
                     c.count(Outcome::Warn), c.count(Outcome::Pass), c.count(Outcome::Skip), meaning, exit_code);
}

nlohmann::json finding_to_json(const Finding& f) {
  return {{"layer", layer_key(f.layer)},
          {"check", f.check},
          {"outcome", outcome_name(f.outcome)},
          {"summary", f.summary},
          {"cause", f.cause},
          {"fix", f.fix},
          {"details", f.details},
          {"guide_causes", cause_ids(f.field_causes)},
          {"bad_input", f.bad_input}};
}

nlohmann::json doctor_to_json(const EnvironmentManifest& m, const Checklist& c, int exit_code,
                              std::string_view meaning) {
  nlohmann::json manifest = nlohmann::json::array();
  for (const auto& [k, v] : m) manifest.push_back({{"key", k}, {"value", v}});
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& f : c.findings()) checks.push_back(finding_to_json(f));
  nlohmann::json layers = nlohmann::json::object();
  for (const Layer l : kLayers) {
    std::string worst = "SKIP";
    for (const Outcome o : {Outcome::Pass, Outcome::Warn, Outcome::Fail}) {
      if (c.count(l, o) > 0) worst = outcome_name(o);
    }
    layers[std::string(layer_key(l))] = worst;
  }
  return {{"schema", "archbench.doctor"},
          {"schema_version", kDoctorSchemaVersion},
          {"manifest", manifest},
          {"layers", layers},
          {"checks", checks},
          {"counts",
           {{"FAIL", c.count(Outcome::Fail)},
            {"WARN", c.count(Outcome::Warn)},
            {"PASS", c.count(Outcome::Pass)},
            {"SKIP", c.count(Outcome::Skip)}}},
          {"diagnosis", meaning},
          {"exit_code", exit_code}};
}

}  // namespace archbench::doctor
