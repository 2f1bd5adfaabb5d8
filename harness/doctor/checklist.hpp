// The doctor's checklist: one finding per check, each PASS / WARN / FAIL / SKIP, grouped in the
// four layers (hardware & driver -> runtime -> build -> workload). Every non-PASS finding carries
// its cause and its fix, and the root causes of docs/reference/field-causes.md it is an instance
// of; the layers only add findings, the report and the exit code only read them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/device/field_cause.hpp"
#include "harness/util/enum_names.hpp"

namespace archbench::doctor {

enum class Outcome { Pass, Warn, Fail, Skip };
inline constexpr auto kOutcomes = enum_names<Outcome>(
    {{Outcome::Pass, "PASS"}, {Outcome::Warn, "WARN"}, {Outcome::Fail, "FAIL"}, {Outcome::Skip, "SKIP"}});
[[nodiscard]] constexpr std::string_view outcome_name(Outcome o) { return name_of(kOutcomes, o); }

enum class Layer { Hardware, Runtime, Build, Workload };
[[nodiscard]] std::string_view layer_title(Layer l);  // "hardware & driver", ...
[[nodiscard]] std::string_view layer_key(Layer l);    // "hardware", "runtime", "build", "workload"
inline constexpr Layer kLayers[] = {Layer::Hardware, Layer::Runtime, Layer::Build, Layer::Workload};

struct Finding {
  Finding() = default;
  Finding(Layer l, std::string check_id, Outcome o, std::string what, std::string why = {}, std::string todo = {},
          FieldCauses causes = {})
      : layer(l),
        check(std::move(check_id)),
        outcome(o),
        summary(std::move(what)),
        cause(std::move(why)),
        fix(std::move(todo)),
        field_causes(std::move(causes)) {}
  Finding&& with_details(std::vector<std::string> d) && {
    details = std::move(d);
    return std::move(*this);
  }

  Layer layer = Layer::Hardware;
  std::string check;  // stable id, e.g. "device-count", "visible-devices", "build-targets"
  Outcome outcome = Outcome::Pass;
  std::string summary;               // what was seen, one line
  std::string cause;                 // why it is not a PASS (empty for PASS)
  std::string fix;                   // what to do about it (empty for PASS)
  std::vector<std::string> details;  // evidence: paths, versions, operator ids
  FieldCauses field_causes;          // the root causes this finding is an instance of (field_cause.hpp)
  bool bad_input = false;            // a --check file could not be read (exit code 5)
};

class Checklist {
 public:
  void add(Finding f) { findings_.push_back(std::move(f)); }
  [[nodiscard]] const std::vector<Finding>& findings() const { return findings_; }
  [[nodiscard]] std::vector<const Finding*> in(Layer l) const;
  [[nodiscard]] const Finding* find(std::string_view check) const;  // the first with this id
  [[nodiscard]] std::vector<const Finding*> all_of(std::string_view check) const;
  [[nodiscard]] size_t count(Outcome o) const;
  [[nodiscard]] size_t count(Layer l, Outcome o) const;

 private:
  std::vector<Finding> findings_;
};

// What the checklist amounts to, in the order the exit code ranks them (see doctor_command.cpp).
enum class Diagnosis {
  Healthy,   // PASS / WARN / SKIP only
  Failed,    // a FAIL in the runtime, build or workload layer
  NoDevice,  // a FAIL in the hardware & driver layer: no usable driver or device
  BadInput,  // a --check file cannot be read or is not ELF / fatbin / cubin
};
[[nodiscard]] Diagnosis diagnose(const Checklist& c);

}  // namespace archbench::doctor
