#include "harness/doctor/checklist.hpp"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace archbench::doctor {

std::string_view layer_title(Layer l) {
  switch (l) {
    case Layer::Hardware: return "hardware & driver";
    case Layer::Runtime: return "runtime (libraries loaded in this process, environment)";
    case Layer::Build: return "build (kernel images for every device present)";
    case Layer::Workload: return "workload (every operator x dtype, blocking, checked)";
  }
  return "?";
}

std::string_view layer_key(Layer l) {
  switch (l) {
    case Layer::Hardware: return "hardware";
    case Layer::Runtime: return "runtime";
    case Layer::Build: return "build";
    case Layer::Workload: return "workload";
  }
  return "?";
}

std::vector<const Finding*> Checklist::in(Layer l) const {
  std::vector<const Finding*> out;
  for (const auto& f : findings_)
    if (f.layer == l) out.push_back(&f);
  return out;
}

const Finding* Checklist::find(std::string_view check) const {
  for (const auto& f : findings_)
    if (f.check == check) return &f;
  return nullptr;
}

std::vector<const Finding*> Checklist::all_of(std::string_view check) const {
  std::vector<const Finding*> out;
  for (const auto& f : findings_)
    if (f.check == check) out.push_back(&f);
  return out;
}

size_t Checklist::count(Outcome o) const {
  return static_cast<size_t>(std::ranges::count_if(findings_, [&](const Finding& f) { return f.outcome == o; }));
}

size_t Checklist::count(Layer l, Outcome o) const {
  return static_cast<size_t>(
      std::ranges::count_if(findings_, [&](const Finding& f) { return f.layer == l && f.outcome == o; }));
}

Diagnosis diagnose(const Checklist& c) {
  if (c.count(Layer::Hardware, Outcome::Fail) > 0) return Diagnosis::NoDevice;
  if (std::ranges::any_of(c.findings(), [](const Finding& f) { return f.bad_input; })) return Diagnosis::BadInput;
  if (c.count(Outcome::Fail) > 0) return Diagnosis::Failed;
  return Diagnosis::Healthy;
}

}  // namespace archbench::doctor
