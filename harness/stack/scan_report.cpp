#include "harness/stack/scan_report.hpp"

#include "harness/util/text_wrap.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace archbench::stack {
namespace {


constexpr size_t kWidth = text::kColumns;

// A paragraph wrapped to 120 columns: the first line indented by `first`, the rest by `next` spaces.
std::string wrap(const std::string& paragraph, size_t first, size_t next) {
  return text::wrap(paragraph, kWidth, std::string(first, ' '), std::string(next, ' '));
}

std::string fit(const std::string& s, size_t width) { return text::shorten(s, width); }

std::string package_title(const Package& p) { return p.version.empty() ? p.name : p.name + " " + p.version; }

// "RTX 5090 (12.0, Blackwell), driver CUDA 12.8"; a fleet device's or a present GPU's label first.
std::string device_title(const arch::DeviceSpec& d) {
  std::string t = arch::describe_device(d);
  if (d.label != d.given) t = d.label + ": " + t;
  return t + ", driver " + (d.driver.known() ? "CUDA " + d.driver.str() : std::string("unknown (PTX ISA not judged)"));
}

std::string grouped(uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
  return s;
}

}  // namespace

bool every_package_runs(const ScanReport& r) {
  return std::ranges::all_of(r.devices, [](const DeviceJudgement& d) {
    return std::ranges::all_of(d.packages, [](const PackageJudgement& p) { return binary::runs(p.coverage); });
  });
}

std::string format_scan(const ScanReport& r) {
  const Inventory& inv = *r.inventory;
  std::string s;
  s += wrap(fmt::format("archbench scan: {}", fmt::join(inv.sources, ", ")), 0, 2);
  s += wrap(fmt::format("read {} file(s) in {:.1f} s: {} with device code in {} package(s){}", grouped(inv.files_seen),
                        r.seconds, inv.files.size(), inv.packages.size(),
                        inv.unreadable.empty() ? "" : fmt::format("; {} unreadable (listed below)", inv.unreadable.size())),
            0, 2);
  for (const auto& d : r.devices) {
    s += "\non " + device_title(d.device) + "\n";
    std::vector<std::string> fine;
    for (const auto& pj : d.packages) {
      const Package& p = inv.packages[pj.package];
      if (pj.coverage == ImageOutcome::Sass && pj.notes.empty() && !r.show_files) {
        fine.push_back(package_title(p));
        continue;
      }
      s += fit(fmt::format("  {:<21} {:<34} {}", outcome_name(pj.coverage), fit(package_title(p), 34), pj.summary),
               kWidth) + "\n";
      if (!pj.cause.empty()) s += wrap("cause: " + pj.cause, 6, 13);
      if (!pj.fix.empty()) s += wrap("fix: " + pj.fix, 6, 11);
      for (const auto& n : pj.notes) s += wrap("note: " + n, 6, 12);
      if (r.show_files) {
        for (const auto& fj : pj.files) {
          const auto& f = inv.files[fj.file];
          s += fit(fmt::format("      {:<18} {} ({}, {}, {} {})", outcome_name(fj.coverage), f.path,
                               binary::format_name(f.format), binary::kind_name(f.kind.kind), fj.tally.units,
                               f.kernels.empty() ? "containers" : "kernels"), kWidth) + "\n";
        }
      }
      if (r.show_kernels) {
        for (const auto& fj : pj.files) {
          for (const auto& [cause, names] : fj.tally.failing_by_cause) {
            for (const auto& n : names) s += fit("        " + n, kWidth) + "\n";
          }
        }
      }
    }
    if (!fine.empty()) {
      s += wrap(fmt::format("native ({}): {}", fine.size(), fmt::join(fine, ", ")), 2, 4);
    }
  }
  if (!inv.unreadable.empty()) {
    s += "\nunreadable (skipped, the scan went on):\n";
    for (const auto& u : inv.unreadable) s += wrap(u.path + ": " + u.why, 2, 6);
  }
  if (!inv.not_judged.empty()) {
    s += "\nlisted, not judged:\n";
    for (const auto& n : inv.not_judged) s += wrap(n, 2, 6);
  }
  if (const auto mixed = mixed_cuda_runtimes(inv); !mixed.empty()) {
    s += "\n" + wrap("finding: packages built for different CUDA runtime majors; one process loads them together only "
                      "when every runtime is installed, else one falls back or fails (ONNX Runtime for CUDA 12 beside "
                      "torch for CUDA 13 runs on the CPU, ragflow#14565):", 0, 2);
    for (const auto& m : mixed) s += wrap(m, 2, 6);
  }
  if (!inv.notes.empty()) {
    s += "\nnotes:\n";
    for (const auto& n : inv.notes) s += wrap(n, 2, 4);
  }
  size_t cannot = 0, pairs = 0;
  std::map<ImageOutcome, size_t> by;
  for (const auto& d : r.devices) {
    for (const auto& pj : d.packages) {
      ++pairs;
      ++by[pj.coverage];
      cannot += binary::runs(pj.coverage) ? 0 : 1;
    }
  }
  std::string counts;
  for (const auto& [c, n] : by) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, outcome_name(c));
  if (inv.files.empty()) return s + "\nsummary: no device code found: nothing judged -> FAIL\n";
  s += "\n" + wrap(fmt::format("summary: {} package(s) x {} device(s): {}; {} cannot run -> {}", inv.packages.size(),
                               r.devices.size(), counts, cannot, cannot == 0 ? "PASS" : "FAIL"),
                   0, 2);
  return s;
}

std::string format_inventory(const Inventory& inv) {
  std::string s = wrap(fmt::format("archbench scan: {}", fmt::join(inv.sources, ", ")), 0, 2);
  s += wrap(fmt::format("read {} file(s): {} with device code in {} package(s); not judged (no device)",
                        grouped(inv.files_seen), inv.files.size(), inv.packages.size()), 0, 2);
  for (const auto& p : inv.packages) {
    s += "\n" + fit("  " + package_title(p), kWidth) + "\n";
    for (size_t i : p.files) {
      const auto& f = inv.files[i];
      std::set<std::string> sass, ptx;
      for (const auto& e : f.judged_entries()) {
        if (e.is_image) (e.target.kind == arch::ImageKind::Sass ? sass : ptx).insert(e.target.name());
      }
      s += wrap(fmt::format("{} ({}): SASS {} | PTX {}", f.path, binary::kind_name(f.kind.kind),
                            sass.empty() ? "none" : fmt::format("{}", fmt::join(sass, " ")),
                            ptx.empty() ? "none" : fmt::format("{}", fmt::join(ptx, " "))), 4, 8);
    }
  }
  if (!inv.not_judged.empty()) {
    s += "\nlisted, not judged:\n";
    for (const auto& n : inv.not_judged) s += wrap(n, 2, 6);
  }
  if (!inv.unreadable.empty()) {
    s += "\nunreadable (skipped, the scan went on):\n";
    for (const auto& u : inv.unreadable) s += wrap(u.path + ": " + u.why, 2, 6);
  }
  return s;
}

std::string format_scan_markdown(const ScanReport& r) {
  const Inventory& inv = *r.inventory;
  auto cell = [](std::string s) {
    for (size_t at = s.find('|'); at != std::string::npos; at = s.find('|', at + 2)) s.replace(at, 1, "\\|");
    return s;
  };
  std::string s = fmt::format("## archbench scan\n\n{} file(s) read, {} with device code in {} package(s)\n",
                              grouped(inv.files_seen), inv.files.size(), inv.packages.size());
  for (const auto& d : r.devices) {
    s += fmt::format("\n### {}\n\n| package | verdict | detail | fix |\n|---|---|---|---|\n", device_title(d.device));
    for (const auto& pj : d.packages) {
      s += fmt::format("| {} | {} | {} | {} |\n", cell(package_title(inv.packages[pj.package])),
                       outcome_name(pj.coverage), cell(pj.summary), cell(pj.fix));
    }
  }
  if (!inv.unreadable.empty()) {
    s += "\n### Unreadable\n\n";
    for (const auto& u : inv.unreadable) s += fmt::format("- `{}`: {}\n", u.path, u.why);
  }
  return s;
}

nlohmann::json scan_to_json(const ScanReport& r) {
  using nlohmann::json;
  const Inventory& inv = *r.inventory;
  json packages = json::array();
  for (const auto& p : inv.packages) {
    json files = json::array();
    for (size_t i : p.files) {
      const auto& f = inv.files[i];
      std::map<std::string, size_t> sass, ptx;
      for (const auto& e : f.entries) {
        if (e.is_image) ++(e.target.kind == arch::ImageKind::Sass ? sass : ptx)[e.target.name()];
      }
      files.push_back({{"path", f.path}, {"source", f.source}, {"format", binary::format_name(f.format)}, {"size", f.size},
                       {"containers", f.containers}, {"kind", binary::kind_name(f.kind.kind)}, {"kind_why", f.kind.why},
                       {"needed", f.needed}, {"sass", sass}, {"ptx", ptx},
                       {"toolkit", f.toolkit ? json(f.toolkit->str()) : json(nullptr)}, {"problems", f.problems}});
    }
    const char* origin = p.origin == Package::Origin::Wheel      ? "wheel"
                         : p.origin == Package::Origin::DistInfo ? "dist-info"
                         : p.origin == Package::Origin::Conda    ? "conda"
                                                                 : "unattributed";
    packages.push_back({{"name", p.name}, {"version", p.version}, {"origin", origin}, {"where", p.where},
                        {"declared_cuda_major", p.declared_cuda_major ? json(*p.declared_cuda_major) : json(nullptr)},
                        {"declared_arch_list", p.declared_arch_list},
                        {"declared_arch_list_from", p.declared_arch_list_from},
                        {"files", files}});
  }
  json devices = json::array();
  for (const auto& d : r.devices) {
    json verdicts = json::array();
    for (const auto& pj : d.packages) {
      json files = json::array();
      for (const auto& fj : pj.files) {
        json counts = json::object();
        for (const auto& [status, n] : fj.tally.by_status) counts[std::string(outcome_name(status))] = n;
        files.push_back({{"path", inv.files[fj.file].path}, {"verdict", outcome_name(fj.coverage)},
                         {"counted", fj.counted},
                         {"units", fj.tally.units}, {"unit", inv.files[fj.file].kernels.empty() ? "container" : "kernel"},
                         {"counts", counts}, {"images_used", fj.tally.images_used},
                         {"arch_specific_elsewhere", fj.tally.arch_specific_elsewhere},
                         {"runtime", fj.runtime ? json{{"cuda_major", fj.runtime->cuda_major}, {"library", fj.runtime->library}}
                                                : json(nullptr)}});
      }
      verdicts.push_back({{"package", inv.packages[pj.package].name}, {"version", inv.packages[pj.package].version},
                          {"verdict", outcome_name(pj.coverage)}, {"runs", binary::runs(pj.coverage)},
                          {"summary", pj.summary}, {"cause", pj.cause}, {"fix", pj.fix}, {"notes", pj.notes},
                          {"files", files}});
    }
    devices.push_back({{"label", d.device.label}, {"cc", d.device.cc.str()},
                       {"driver", d.device.driver.known() ? json(d.device.driver.str()) : json(nullptr)},
                       {"packages", verdicts}});
  }
  json unreadable = json::array();
  for (const auto& u : inv.unreadable) unreadable.push_back({{"path", u.path}, {"why", u.why}});
  return {{"schema", "archbench.scan"}, {"schema_version", kScanSchemaVersion}, {"sources", inv.sources},
          {"framework_cuda", inv.framework_cuda ? json{{"cuda", inv.framework_cuda->cuda.str()}, {"from", inv.framework_cuda->from}}
                                                : json(nullptr)},
          {"files_seen", inv.files_seen}, {"seconds", r.seconds},
          {"packages", packages}, {"devices", devices}, {"unreadable", unreadable}, {"notes", inv.notes},
          {"not_judged", inv.not_judged}, {"mixed_cuda_runtimes", mixed_cuda_runtimes(inv)},
          {"every_package_runs", every_package_runs(r)}};
}

}  // namespace archbench::stack
