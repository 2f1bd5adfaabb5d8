// The doctor's checks as tables, one per layer, like the operators of kernels/register_all.cpp: each
// row is a check's stable id, spelled there once, and its judge, a pure function from the facts the
// layer gathered (system calls, files, NVML: hardware_facts, runtime_facts) to findings. The judges
// are tested without a GPU on facts built by hand; the table's order is the report's.
#pragma once

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "harness/doctor/checklist.hpp"

namespace archbench::doctor {

// What a judge writes through: the check's id and layer go on every finding it makes.
class CheckOutput {
 public:
  CheckOutput(Checklist& list, std::string_view id, Layer layer) : list_(list), id_(id), layer_(layer) {}

  // A finding of this check.
  [[nodiscard]] Finding finding(Outcome o, std::string what, std::string why = {}, std::string todo = {},
                                FieldCauses causes = {}) const {
    return {layer_, std::string(id_), o, std::move(what), std::move(why), std::move(todo), std::move(causes)};
  }
  // A finding about one subject of this check, id "<id>:<subject>" (a library family, a variable).
  [[nodiscard]] Finding finding_about(std::string_view subject, Outcome o, std::string what, std::string why = {},
                                      std::string todo = {}, FieldCauses causes = {}) const {
    return {layer_, std::string(id_) + ":" + std::string(subject), o, std::move(what), std::move(why),
            std::move(todo), std::move(causes)};
  }
  void add(Finding f) { list_.add(std::move(f)); }
  // The output of another check of the same layer (a row that runs a table of its own).
  [[nodiscard]] CheckOutput for_check(std::string_view id) const { return {list_, id, layer_}; }

 private:
  Checklist& list_;
  std::string_view id_;
  Layer layer_;
};

template <typename Facts>
struct Check {
  std::string_view id;  // "device-count": the findings' id (or its prefix, with finding_about)
  void (*judge)(const Facts& facts, CheckOutput& out);
};

// Every check of `table`, in its order.
template <typename Facts>
void run_checks(std::span<const Check<Facts>> table, Layer layer, const Facts& facts, Checklist& out) {
  for (const auto& check : table) {
    CheckOutput o(out, check.id, layer);
    check.judge(facts, o);
  }
}

// The one check of `table` with this id (the tests judge one check at a time); throws
// std::invalid_argument for an id the table does not hold.
template <typename Facts>
void run_check(std::span<const Check<Facts>> table, Layer layer, std::string_view id, const Facts& facts,
               Checklist& out) {
  for (const auto& check : table) {
    if (check.id != id) continue;
    CheckOutput o(out, check.id, layer);
    check.judge(facts, o);
    return;
  }
  throw std::invalid_argument("no doctor check '" + std::string(id) + "' in this layer");
}

}  // namespace archbench::doctor
