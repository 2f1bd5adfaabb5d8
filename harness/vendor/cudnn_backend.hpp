// cuDNN's backend (graph) API, the parts every graph twin shares: an owner for backend
// descriptors, the operation graph, the engine heuristics, execution plans, and what an engine
// config says about itself (engine index, knob choices, notes). Used by the cuDNN SDPA twin and
// the cuDNN convolution twins. Every failing call throws LibraryError("cuDNN", status) whose text
// starts with the step that failed, then cuDNN's own message (cudnnGetLastErrorString).
#pragma once

#include <cudnn.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace archbench::cudnn_backend {

// Throws LibraryError("cuDNN", <status name>) when s is not CUDNN_STATUS_SUCCESS.
void check(cudnnStatus_t s, const std::string& step);

// One backend descriptor, created in the constructor and destroyed with its owner. `name` prefixes
// every error of a call on it ("cuDNN conv graph: tensor x: set CUDNN_ATTR_TENSOR_STRIDES").
class Descriptor {
 public:
  Descriptor(cudnnBackendDescriptorType_t type, std::string name);
  ~Descriptor();
  Descriptor(Descriptor&& o) noexcept;
  Descriptor& operator=(Descriptor&&) = delete;
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;

  [[nodiscard]] cudnnBackendDescriptor_t get() const { return d_; }
  [[nodiscard]] const std::string& name() const { return name_; }

  void set(cudnnBackendAttributeName_t attr, const char* attr_name, cudnnBackendAttributeType_t type, int64_t count,
           const void* values);
  void set_desc(cudnnBackendAttributeName_t attr, const char* attr_name, const Descriptor& value);
  void finalize();

 private:
  cudnnBackendDescriptor_t d_ = nullptr;
  std::string name_;
};

// The attribute and its name, for the step text: d.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_X), ...).
#define ARCHBENCH_CUDNN_ATTR(name) name, #name

// A finalized variant pack ("<label>: variant pack"): the pointer of each tensor uid (device
// memory; host memory for by-value tensors) and the plan's workspace. Both vectors have one
// entry per uid.
[[nodiscard]] std::unique_ptr<Descriptor> make_variant_pack(const std::string& label, const std::vector<int64_t>& uids,
                                                            const std::vector<void*>& pointers, void* workspace);

// The finalized operation graph of `ops` ("<label>: operation graph"). With handle == nullptr it
// still finalizes, which is what a machine without a GPU can check; heuristics need the handle.
[[nodiscard]] Descriptor make_operation_graph(const std::vector<cudnnBackendDescriptor_t>& ops, cudnnHandle_t handle,
                                              const std::string& label);

// What the engine heuristics (mode A) return for a graph, best first. The heuristics descriptor
// is kept with its results, which stay valid as long as it does.
struct HeuristicResults {
  Descriptor heuristics;
  std::vector<Descriptor> configs;  // CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, heuristic order
};
// Throws LibraryError(CUDNN_STATUS_NOT_SUPPORTED) when the heuristics return no engine config.
[[nodiscard]] HeuristicResults heuristic_engine_configs(const Descriptor& graph, const std::string& label);

// A finalized execution plan of `config` on `handle` (descriptor name `name`); throws
// LibraryError when the engine refuses the graph at finalization.
[[nodiscard]] Descriptor make_execution_plan(cudnnHandle_t handle, const Descriptor& config, const std::string& name);
[[nodiscard]] int64_t plan_workspace_bytes(const Descriptor& plan);

// An engine: its global index for the operation graph and the notes it carries.
struct EngineDescription {
  int64_t global_index = -1;
  std::vector<cudnnBackendNumericalNote_t> numerical_notes;
  std::vector<cudnnBackendBehaviorNote_t> behavior_notes;
};
// Of a finalized CUDNN_BACKEND_ENGINE_DESCRIPTOR.
[[nodiscard]] EngineDescription describe_engine(const Descriptor& engine);
// Of the engine an engine config (from the heuristics) runs. Needs no finalized plan (and so
// compiles nothing).
[[nodiscard]] EngineDescription describe_config(const Descriptor& config);

// How many engines cuDNN has for a finalized operation graph, and one of them by global index,
// finalized (LibraryError when it does not support the graph, or, without a handle, needs one).
[[nodiscard]] int64_t engine_count(const Descriptor& graph);
[[nodiscard]] Descriptor make_engine(const Descriptor& graph, int64_t global_index, const std::string& name);

// One knob of an engine config: the knob type (cudnnBackendKnobType_t's value) and its choice.
struct KnobChoice {
  int64_t type = 0;
  int64_t value = 0;
};
[[nodiscard]] std::vector<KnobChoice> knob_choices(const Descriptor& config);

// Names without the CUDNN_..._ prefix ("TILE_SIZE", "TENSOR_CORE", "RUNTIME_COMPILATION");
// values a newer cuDNN added read "knob 45", "numerical note 11", "behavior note 6".
[[nodiscard]] std::string knob_type_name(int64_t type);
[[nodiscard]] std::string numerical_note_name(cudnnBackendNumericalNote_t note);
[[nodiscard]] std::string behavior_note_name(cudnnBackendBehaviorNote_t note);
// "SPLIT_K_SLC=2 TILE_SIZE=3", in the order the config lists them; "none" when there are none.
[[nodiscard]] std::string knobs_text(const std::vector<KnobChoice>& knobs);

}  // namespace archbench::cudnn_backend
