#include "harness/doctor/workload_layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/doctor/text.hpp"

namespace archbench::doctor {

using enum FieldCause;
namespace {

bool wrong_result(const OperatorResult& r) {
  return r.error.empty() && r.fault == WorkerFault::None && r.image.agrees && r.correctness &&
         !r.correctness->correct();
}

// A JIT-pass result (an image probe, or a full check when one ran) without a problem.
bool ran_in_pass(const OperatorResult& r) {
  if (!r.error.empty() || r.fault != WorkerFault::None || !r.image.agrees) return false;
  if (!r.image.runs()) return false;
  return !r.correctness || r.correctness->correct();
}

std::vector<std::string> ids_of(const std::vector<const OperatorResult*>& rs) {
  std::vector<std::string> ids;
  for (const auto* r : rs) ids.push_back(r->id);
  return ids;
}

// Dtypes in name order (bf16, f16, f32, tf32), as the findings list them.
struct ByName {
  bool operator()(DType a, DType b) const { return dtype_name(a) < dtype_name(b); }
};
using DTypeSet = std::set<DType, ByName>;

std::vector<std::string> names(const DTypeSet& dtypes) {
  std::vector<std::string> out;
  for (DType d : dtypes) out.emplace_back(dtype_name(d));
  return out;
}

// Per family and shape ("attention at B2_H8_N4096_d40"), among archbench's own kernels: the dtypes
// with a working one and the dtypes whose every one lacks a usable image (wrong results are not an
// image gap; library twins have their own images).
std::map<std::string, std::pair<DTypeSet, DTypeSet>> family_dtype_gaps(
    const std::vector<const OperatorResult*>& failing, const std::vector<OperatorResult>& all) {
  std::map<std::string, std::pair<DTypeSet, DTypeSet>> by_shape;  // ok, bad
  for (const auto* f : failing) {
    if (f->impl == Impl::Own && lacks_loadable_image(f->image.status))
      by_shape[f->family + " at " + f->shape].second.insert(f->dtype);
  }
  for (const auto& r : all) {
    auto it = by_shape.find(r.family + " at " + r.shape);
    if (it == by_shape.end() || r.impl != Impl::Own || r.failed() || r.image.status == ImageOutcome::Unsupported) continue;
    it->second.first.insert(r.dtype);
  }
  for (auto& [key, sets] : by_shape) {
    for (const auto& d : sets.first) sets.second.erase(d);  // a dtype with any working operator is no gap
  }
  std::erase_if(by_shape, [](const auto& kv) { return kv.second.first.empty() || kv.second.second.empty(); });
  return by_shape;
}

// The guides' temporary workarounds for the failing operators: the same operator in a dtype that
// works, a library twin that works at the same family/dtype/shape, or the CPU.
std::string workaround(const std::vector<const OperatorResult*>& failing, const std::vector<OperatorResult>& all) {
  std::vector<std::string> parts;
  std::set<std::string> done;
  for (const auto* f : failing) {
    const std::string v = f->variant();
    if (!done.insert(v).second) continue;
    DTypeSet bad_dtypes, ok_dtypes;
    std::set<std::string> twins;
    for (const auto* g : failing) {
      if (g->variant() == v) bad_dtypes.insert(g->dtype);
    }
    for (const auto& r : all) {
      if (r.failed() || r.image.status == ImageOutcome::Unsupported) continue;
      if (r.variant() == v && !bad_dtypes.contains(r.dtype)) ok_dtypes.insert(r.dtype);
      if (r.family == f->family && r.name != f->name && bad_dtypes.contains(r.dtype) && r.shape == f->shape)
        twins.insert(r.name);
    }
    const std::string bad = join(names(bad_dtypes), ", ");
    if (!ok_dtypes.empty()) {
      parts.push_back(fmt::format("run {} in {} instead of {} (it fails only in {})", v,
                                  join(names(ok_dtypes), " or "), bad, bad));
    } else if (!twins.empty()) {
      parts.push_back(fmt::format("use {} instead of {} for {} (same family, dtype and shape, and it works here)",
                                  join({twins.begin(), twins.end()}, " or "), f->name, bad));
    } else if (auto gaps = family_dtype_gaps({f}, all); !gaps.empty()) {
      const auto& ok = gaps.begin()->second.first;
      parts.push_back(fmt::format("run {} in {} instead of {} (that dtype works at this shape: a precision fallback)",
                                  f->family, join(names(ok), " or "), bad));
    } else {
      parts.push_back(fmt::format("run {} ({}) on the CPU", v, bad));
    }
  }
  return "temporary workaround until it is fixed: " + join(parts, "; ");
}

// "the build covers matmul/gemm_tc in f32 but not in f16, bf16": a per-path gap
// (arch-only-on-some-paths).
std::vector<std::string> dtype_gaps(const std::vector<const OperatorResult*>& failing,
                                    const std::vector<OperatorResult>& all) {
  std::vector<std::string> out;
  std::map<std::string, std::pair<DTypeSet, DTypeSet>> by_variant;  // ok, bad
  for (const auto* f : failing) by_variant[f->variant()].second.insert(f->dtype);
  for (const auto& r : all) {
    auto it = by_variant.find(r.variant());
    if (it != by_variant.end() && !r.failed() && !it->second.second.contains(r.dtype)) it->second.first.insert(r.dtype);
  }
  for (const auto& [v, sets] : by_variant) {
    if (sets.first.empty()) continue;
    out.push_back(fmt::format("{} works in {} but not in {}: one code path or dtype lacks an image the others have", v,
                              join(names(sets.first), ", "), join(names(sets.second), ", ")));
  }
  // The same gap across implementations: one dtype has its own kernel (attention/flash_simt for
  // f32), the others another one (flash_tc for f16/bf16), and only one of them lacks the image.
  // One line per family and pattern, with the number of shapes it holds for.
  std::map<std::tuple<std::string, std::string, std::string>, size_t> patterns;  // family, ok, bad -> shapes
  for (const auto& [family_shape, gap] : family_dtype_gaps(failing, all)) {
    const auto& [ok, bad] = gap;
    patterns[{family_shape.substr(0, family_shape.find(" at ")), join(names(ok), ", "), join(names(bad), ", ")}]++;
  }
  for (const auto& [pattern, shapes] : patterns) {
    const auto& [family, ok, bad] = pattern;
    out.push_back(fmt::format("{}'s own kernels work in {} but not in {} (at {} shape(s)): the {} code path lacks an "
                              "image the others have",
                              family, ok, bad, shapes, bad));
  }
  return out;
}

std::string device_name(const DeviceInfo& d) {
  return fmt::format("device {} ({}, CC {})", d.index, d.name, d.cc.str());
}

// The newest SASS arch of the build, as an arch-list entry ("9.0").
std::string newest_sass_entry(const BuildManifest* build) {
  if (build == nullptr) return {};
  const arch::CodeTarget* newest = nullptr;
  for (const auto& t : build->targets) {
    if (t.kind == arch::ImageKind::Sass && (newest == nullptr || t.arch > newest->arch)) newest = &t;
  }
  if (newest == nullptr) return {};
  return newest->cc().str() + std::string(arch::suffix_letter(newest->suffix));
}

// Grouped findings for the failing operators of one pass.
void add_failure_groups(const std::vector<const OperatorResult*>& failing, const std::vector<OperatorResult>& all,
                        const std::string& pass, const std::string& device, Outcome outcome, bool with_workaround,
                        Checklist& out) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const OperatorResult*>> groups;
  for (const auto* r : failing) {
    const std::string key = wrong_result(*r) ? "wrong result" : failure_key(*r);
    if (!groups.contains(key)) order.push_back(key);
    groups[key].push_back(r);
  }
  for (const auto& key : order) {
    const auto& rs = groups[key];
    const OperatorResult& first = *rs.front();
    Finding f(Layer::Workload, "operators-failed", outcome,
              fmt::format("{}{}: {} operator(s) {}: {}", pass, device, rs.size(),
                          key == "wrong result" ? "compute a wrong result" : "fail", first_few(ids_of(rs), 3)));
    if (key == "wrong result") {
      f.cause =
          "the output differs from the float64 reference beyond the dtype's tolerance (or by more than 3x the error "
          "of the operator's library twin on the same inputs, or has unwritten / non-finite elements): a silent "
          "wrong answer, not an error";
      f.fix =
          "do not trust these operators on this device; compare the --jit-passes results (SASS vs JIT) and report it";
      f.field_causes = {SilentWrongResults};
      for (const auto* r : rs) {
        const auto& c = *r->correctness;
        std::string twin;
        if (c.twin_rel_error) {
          twin = fmt::format("; its library twin {} has {:.2e}, the limit is {:.0f}x that", c.twin_id,
                             *c.twin_rel_error, kOracleFactor);
        }
        f.details.push_back(
            fmt::format("{}: rel. error {:.2e} (tolerance {:.0e}{}), {} non-finite of {}{}", r->id, c.rel_error,
                        c.tolerance, twin, c.non_finite, c.elements,
                        c.bench_shape_failed() ? "; the full shape has unwritten or non-finite elements" : ""));
      }
    } else {
      f.cause = key;
      if (lacks_loadable_image(first.image.status) && first.image.agrees) {
        f.fix = first.image.fix;
        f.field_causes = first.image.status == ImageOutcome::Missing     ? FieldCauses{NoSassForMajor, ArchOnlyOnSomePaths}
                         : first.image.status == ImageOutcome::NeedsNewerDriver ? FieldCauses{PtxNewerThanDriver}
                                                                         : FieldCauses{PtxJitReliance};
      } else if (first.fault != WorkerFault::None) {
        f.fix = "run it alone to see the error: archbench run --no-timing --filter '" + first.id +
                "' (a sticky CUDA error or a crash ends the worker; the doctor continued with a new one)";
      } else if (!first.image.agrees) {
        f.fix =
            "the driver loaded another image than the compatibility rules predict: report it with this doctor's "
            "--json output";
      } else if (first.image.status == ImageOutcome::LibraryError) {
        f.fix =
            "check the runtime layer (library versions, other copies) and that this library release supports the "
            "device";
      } else {
        f.fix = "run it alone: archbench run --no-timing --filter '" + first.id + "'";
      }
      for (const auto& id : ids_of(rs)) f.details.push_back(id);
    }
    for (auto& gap : dtype_gaps(rs, all)) {
      f.details.insert(f.details.begin(), std::move(gap));
      if (std::ranges::find(f.field_causes, ArchOnlyOnSomePaths) == f.field_causes.end())
        f.field_causes.push_back(ArchOnlyOnSomePaths);
    }
    if (with_workaround) f.fix += (f.fix.empty() ? "" : "; ") + workaround(rs, all);
    out.add(std::move(f));
  }
}

void judge_blocking(const WorkloadInputs& in, Checklist& out) {
  const auto& all = in.blocking.results;
  const std::string dev = device_name(in.device);
  std::map<std::string, size_t> status;
  std::vector<const OperatorResult*> failing, jit, unsupported;
  for (const auto& r : all) {
    if (r.image.status == ImageOutcome::Unsupported)
      unsupported.push_back(&r);
    else if (r.failed())
      failing.push_back(&r);
    else if (r.image.status == ImageOutcome::PtxJit)
      jit.push_back(&r);
    const std::string_view name = outcome_name(r.image.status);
    ++status[r.image.status == ImageOutcome::NotProbed ? "not run" : std::string(name)];
  }
  std::vector<std::string> counts;
  for (const auto& [s, n] : status) counts.push_back(fmt::format("{} {}", n, s));
  const size_t ok = all.size() - failing.size() - unsupported.size();
  Finding summary(Layer::Workload, "operators", failing.empty() ? Outcome::Pass : Outcome::Fail,
                  fmt::format("{}: {} of {} operator runs have an image and are correct ({}), checked against float64 "
                              "references under CUDA_LAUNCH_BLOCKING=1",
                              dev, ok, all.size() - unsupported.size(), join(counts, ", ")));
  if (!failing.empty()) {
    summary.cause = fmt::format("{} operator(s) failed (grouped by cause below)", failing.size());
    summary.fix = "see the grouped findings below";
  }
  if (!unsupported.empty()) {
    summary.details.push_back(fmt::format("unsupported on CC {} (below the operator's minimum, not a failure): {}",
                                          in.device.cc.str(), first_few(ids_of(unsupported), 6)));
  }
  out.add(std::move(summary));
  if (!in.blocking.failure.empty()) {
    out.add(Finding(Layer::Workload, "worker", Outcome::Fail, dev + ": the check stopped early: " + in.blocking.failure,
                    "a worker process could not run (it could not start CUDA, or reported an unknown operator)",
                    "run archbench run --no-timing on this device to see the worker's own message"));
  }
  add_failure_groups(failing, all, "", dev, Outcome::Fail, true, out);
  if (!jit.empty()) {
    const auto& first = *jit.front();
    out.add(
        Finding(
            Layer::Workload, "operators-jit", Outcome::Warn,
            fmt::format("{}: {} operator(s) run only through PTX JIT: {}", dev, jit.size(), first_few(ids_of(jit), 3)),
            first.image.cause + " (a JIT cost at every cold start, a dependence on the JIT cache, and a failure "
                                "wherever CUDA_DISABLE_PTX_JIT is set)",
            first.image.fix, {PtxJitReliance})
            .with_details(ids_of(jit)));
  }
}

// Results of a JIT pass for the operators that passed the blocking check (the others are already findings).
std::vector<const OperatorResult*> passed_before(const PassResults& pass, const PassResults& blocking) {
  std::set<std::string> ok;
  for (const auto& r : blocking.results) {
    if (!r.failed() && r.image.status != ImageOutcome::Unsupported) ok.insert(r.id);
  }
  std::vector<const OperatorResult*> out;
  for (const auto& r : pass.results) {
    if (ok.contains(r.id)) out.push_back(&r);
  }
  return out;
}

void judge_forced_jit(const WorkloadInputs& in, const PassResults& pass, Checklist& out) {
  const std::string dev = device_name(in.device);
  const auto rs = passed_before(pass, in.blocking);
  std::vector<const OperatorResult*> own_ok, no_ptx, wrong, other, library;
  for (const auto* r : rs) {
    const bool own = r->impl == Impl::Own;
    if (ran_in_pass(*r)) {
      if (own) own_ok.push_back(r);
    } else if (!own) {
      library.push_back(r);
    } else if (wrong_result(*r)) {
      wrong.push_back(r);
    } else if (r->image.status == ImageOutcome::Missing && r->image.agrees) {
      no_ptx.push_back(r);
    } else {
      other.push_back(r);
    }
  }
  const std::string pass_name = "forced-JIT pass (CUDA_FORCE_PTX_JIT=1, fresh JIT cache), ";
  if (!pass.failure.empty()) {
    out.add(Finding(Layer::Workload, "forced-jit", Outcome::Warn, pass_name + dev + ": stopped early: " + pass.failure,
                    "the worker could not run under CUDA_FORCE_PTX_JIT=1",
                    "run the doctor again without --jit-passes to separate the cases"));
  }
  if (no_ptx.empty()) {
    out.add(Finding(
        Layer::Workload, "forced-jit", Outcome::Pass,
        fmt::format("{}{}: {} own operator(s) load from PTX alone: they would still run on a GPU newer "
                    "than every SASS target",
                    pass_name, dev, own_ok.size())));
  } else {
    const std::string newest = newest_sass_entry(in.build);
    out.add(Finding(Layer::Workload, "forced-jit", Outcome::Warn,
                    fmt::format("{}{}: {} own operator(s) have no PTX: {}", pass_name, dev, no_ptx.size(),
                                first_few(ids_of(no_ptx), 3)),
                    "they carry SASS only, so on a GPU newer than every SASS target (another major) they fail with 'no "
                    "kernel image' (209), as they did here with SASS ignored",
                    newest.empty() ? "add +PTX to the newest entry of ARCHBENCH_ARCH_LIST"
                                   : "add +PTX to the newest entry of ARCHBENCH_ARCH_LIST (" + newest +
                                         "+PTX) so that newer GPUs can JIT it",
                    {NoSassForMajor, PtxJitReliance})
                .with_details(ids_of(no_ptx)));
  }
  add_failure_groups(wrong, pass.results, pass_name, dev, Outcome::Fail, false, out);
  add_failure_groups(other, pass.results, pass_name, dev, Outcome::Warn, false, out);
  if (!library.empty()) {
    out.add(
        Finding(Layer::Workload, "forced-jit-libraries", Outcome::Warn,
                fmt::format("{}{}: {} library operator(s) cannot run with SASS ignored ({})", pass_name, dev,
                            library.size(), failure_key(*library.front())),
                "cuBLAS and cuDNN ship SASS for the GPUs they support and little PTX: on a GPU newer than a release's "
                "SASS targets, that release does not run",
                "nothing to do for this GPU; on a newer GPU use a library release that supports it")
            .with_details(ids_of(library)));
  }
  // First-launch JIT cost: the forced load minus the same operator's load from SASS (in the no-JIT
  // pass, else the blocking pass); an operator without SASS pays the whole forced load.
  auto sass_load = [&](const std::string& id) {
    for (const PassResults* p : {in.no_jit ? &*in.no_jit : nullptr, &in.blocking}) {
      if (p == nullptr) continue;
      const auto r = std::ranges::find(p->results, id, &OperatorResult::id);
      const auto it = p->load_ms.find(id);
      if (r != p->results.end() && r->image.status == ImageOutcome::Sass && it != p->load_ms.end()) return it->second;
    }
    return 0.0;
  };
  std::vector<std::pair<double, std::string>> costs;
  double total = 0;
  for (const auto* r : own_ok) {
    auto forced = pass.load_ms.find(r->id);
    if (forced == pass.load_ms.end()) continue;
    const double cost = std::max(0.0, forced->second - sass_load(r->id));
    costs.emplace_back(cost, r->id);
    total += cost;
  }
  if (!costs.empty()) {
    std::ranges::sort(costs, std::greater<>());
    std::vector<std::string> top;
    for (size_t i = 0; i < std::min<size_t>(3, costs.size()); ++i)
      top.push_back(fmt::format("{} {:.0f} ms", costs[i].second, costs[i].first));
    Finding f(Layer::Workload, "jit-cost", Outcome::Pass,
              fmt::format("{}: first-launch JIT cost with a cold cache: {:.0f} ms over {} own operator(s); largest: {}",
                          dev, total, costs.size(), join(top, ", ")));
    f.details.push_back(
        "cost = first load of the operator's kernels under CUDA_FORCE_PTX_JIT=1 minus the same load from SASS; "
        "a module's JIT lands on the first operator that loads it");
    for (const auto& [ms, id] : costs) f.details.push_back(fmt::format("{:.1f} ms  {}", ms, id));
    out.add(std::move(f));
  }
}

void judge_no_jit(const WorkloadInputs& in, const PassResults& pass, Checklist& out) {
  const std::string dev = device_name(in.device);
  const std::string pass_name = "no-JIT pass (CUDA_DISABLE_PTX_JIT=1, CUDA_CACHE_DISABLE=1), ";
  const auto rs = passed_before(pass, in.blocking);
  std::vector<const OperatorResult*> sass, needs_jit, other;
  for (const auto* r : rs) {
    if (ran_in_pass(*r)) {
      if (r->impl == Impl::Own) sass.push_back(r);
    } else if (r->image.status == ImageOutcome::JitDisabled && r->image.agrees) {
      needs_jit.push_back(r);
    } else {
      other.push_back(r);
    }
  }
  if (!pass.failure.empty()) {
    out.add(Finding(Layer::Workload, "no-jit", Outcome::Warn, pass_name + dev + ": stopped early: " + pass.failure,
                    "the worker could not run under CUDA_DISABLE_PTX_JIT=1",
                    "run the doctor again without --jit-passes to separate the cases"));
  }
  if (needs_jit.empty()) {
    out.add(Finding(Layer::Workload, "no-jit", Outcome::Pass,
                    fmt::format("{}{}: all {} own operator(s) have SASS for CC {}", pass_name, dev, sass.size(),
                                in.device.cc.str())));
  } else {
    out.add(
        Finding(Layer::Workload, "no-jit", Outcome::Warn,
                fmt::format("{}{}: {} operator(s) have no SASS for CC {}: {}", pass_name, dev, needs_jit.size(),
                            in.device.cc.str(), first_few(ids_of(needs_jit), 3)),
                "with the JIT forbidden and no cache to fall back on they fail with cudaErrorJitCompilationDisabled "
                "(223): they run here only because the driver JIT-compiles their PTX",
                "add " + in.device.cc.str() + " to ARCHBENCH_ARCH_LIST (TORCH_CUDA_ARCH_LIST) for SASS on this device",
                {PtxJitReliance})
            .with_details(ids_of(needs_jit)));
  }
  add_failure_groups(other, pass.results, pass_name, dev, Outcome::Warn, false, out);
}

}  // namespace

std::string failure_key(const OperatorResult& r) {
  if (!r.failed()) return {};
  if (r.fault != WorkerFault::None) return "fault (" + std::string(worker_fault_name(r.fault)) + "): " + r.error;
  if (!r.image.agrees) return "image probe disagrees with the static prediction: " + r.image.disagreement;
  if (lacks_loadable_image(r.image.status)) return r.image.label + ": " + r.image.cause;
  if (r.image.status == ImageOutcome::LibraryError) return r.image.label + ": " + r.image.cause;
  if (!r.error.empty()) return "error: " + r.error;
  if (!r.correctness) return "no correctness result";
  return "wrong result";
}

void check_workload(const WorkloadInputs& in, Checklist& out) {
  judge_blocking(in, out);
  if (in.no_jit) judge_no_jit(in, *in.no_jit, out);
  if (in.forced_jit) judge_forced_jit(in, *in.forced_jit, out);
}

}  // namespace archbench::doctor
