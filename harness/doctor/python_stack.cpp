#include "harness/doctor/python_stack.hpp"
#include "harness/stack/variant_family.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/stack/readers.hpp"

namespace archbench::doctor {

PythonStackFacts gather_python_stack(const Environment& env, int nvcc_major, const std::string& python) {
  PythonStackFacts f;
  f.python = python;
  f.env = stack::ask_python(python, f.error);
  if (!f.env || !env.usable()) return f;
  std::vector<stack::Distribution> dists;
  for (const auto& dir : f.env->site_dirs) stack::read_source(dir, {}, f.inventory, dists);
  for (const auto& lib : stack::outside_cuda_libraries(f.inventory)) stack::read_binary(lib, {}, f.inventory);
  stack::attribute(f.inventory, dists);
  std::vector<arch::DeviceSpec> devices;
  for (const auto& d : env.devices) {
    arch::DeviceSpec spec;
    spec.label = spec.given = fmt::format("device {} ({}, CC {})", d.index, d.name, d.cc.str());
    spec.cc = d.cc;
    spec.driver = env.driver;
    spec.product = d.name;
    devices.push_back(std::move(spec));
  }
  f.judgements = stack::judge_inventory(f.inventory, devices, stack::AdviceContext{nvcc_major, stack::loader_overrides_from_environment()});
  return f;
}

void check_python_stack(const PythonStackFacts& f, Checklist& out) {
  if (!f.env) {
    out.add(Finding(Layer::Build, "python-stack", Outcome::Skip,
                    "the Python environment was not checked: " + f.error + " (archbench scan PATH checks any folder)"));
    return;
  }
  if (f.judgements.empty()) {
    out.add(Finding(Layer::Build, "python-stack", Outcome::Skip,
                    fmt::format("{}'s environment was not judged: no usable device (archbench scan --device CC "
                                "judges without one)", f.env->executable)));
    return;
  }
  if (f.inventory.packages.empty()) {
    out.add(Finding(Layer::Build, "python-stack", Outcome::Pass,
                    fmt::format("{}'s environment (Python {}) holds no package with device code", f.env->executable,
                                f.env->version)));
    return;
  }
  for (const auto& d : f.judgements) {
    std::vector<std::string> fine;
    for (const auto& pj : d.packages) {
      const auto& p = f.inventory.packages[pj.package];
      const std::string title = p.version.empty() ? p.name : p.name + " " + p.version;
      if (pj.coverage == ImageOutcome::Sass) {
        fine.push_back(title);
        continue;
      }
      const Outcome o = binary::runs(pj.coverage) ? Outcome::Warn : Outcome::Fail;
      Finding finding(Layer::Build, "python-stack", o,
                      fmt::format("{} on {}: {}: {}", title, d.device.label, outcome_name(pj.coverage), pj.summary),
                      pj.cause, pj.fix);
      std::vector<std::string> details = pj.notes;
      details.push_back("where: " + p.where);
      out.add(std::move(finding).with_details(std::move(details)));
    }
    if (!fine.empty()) {
      out.add(Finding(Layer::Build, "python-stack", Outcome::Pass,
                      fmt::format("{} package(s) of {}'s environment run natively on {}", fine.size(),
                                  f.env->executable, d.device.label))
                  .with_details({fmt::format("{}", fmt::join(fine, ", "))}));
    }
  }
  for (const auto& u : f.inventory.unreadable) {
    out.add(Finding(Layer::Build, "python-stack", Outcome::Warn, "could not read " + u.path, u.why,
                    "check the file's permissions; archbench scan lists every unreadable file"));
  }
}

}  // namespace archbench::doctor
