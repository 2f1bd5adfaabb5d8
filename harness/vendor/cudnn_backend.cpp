#include "harness/vendor/cudnn_backend.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <deque>
#include <utility>

#include "harness/vendor/cudnn_check.hpp"

namespace archbench::cudnn_backend {
namespace {

// How many notes and knob choices are asked for: one of each kind the headers know, as the cuDNN
// frontend asks. A count cuDNN returns above it (a runtime newer than the headers) is clamped.
constexpr int64_t kMaxNumericalNotes = CUDNN_NUMERICAL_NOTE_TYPE_COUNT;
constexpr int64_t kMaxBehaviorNotes = CUDNN_BEHAVIOR_NOTE_TYPE_COUNT;
constexpr int64_t kMaxKnobs = CUDNN_KNOB_TYPE_COUNTS;

}  // namespace

void check(cudnnStatus_t s, const std::string& step) {
  if (s != CUDNN_STATUS_SUCCESS) throw_cudnn_error(s, step.c_str(), __FILE__, __LINE__);
}

namespace {

// One INT64 attribute of a finalized descriptor.
int64_t get_int64(const Descriptor& d, cudnnBackendAttributeName_t attr, const char* attr_name) {
  int64_t value = 0;
  int64_t n = 0;
  check(cudnnBackendGetAttribute(d.get(), attr, CUDNN_TYPE_INT64, 1, &n, &value), d.name() + ": get " + attr_name);
  return value;
}

}  // namespace

Descriptor::Descriptor(cudnnBackendDescriptorType_t type, std::string name) : name_(std::move(name)) {
  check(cudnnBackendCreateDescriptor(type, &d_), name_ + ": create");
}

Descriptor::~Descriptor() {
  if (d_ != nullptr) cudnnBackendDestroyDescriptor(d_);  // nothing to do about a failure here
}

Descriptor::Descriptor(Descriptor&& o) noexcept : d_(std::exchange(o.d_, nullptr)), name_(std::move(o.name_)) {}

void Descriptor::set(cudnnBackendAttributeName_t attr, const char* attr_name, cudnnBackendAttributeType_t type,
                     int64_t count, const void* values) {
  check(cudnnBackendSetAttribute(d_, attr, type, count, values), name_ + ": set " + attr_name);
}

void Descriptor::set_desc(cudnnBackendAttributeName_t attr, const char* attr_name, const Descriptor& value) {
  const cudnnBackendDescriptor_t raw = value.get();
  set(attr, attr_name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw);
}

void Descriptor::finalize() { check(cudnnBackendFinalize(d_), name_ + ": finalize"); }

std::unique_ptr<Descriptor> make_variant_pack(const std::string& label, const std::vector<int64_t>& uids,
                                              const std::vector<void*>& pointers, void* workspace) {
  auto pack = std::make_unique<Descriptor>(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, label + ": variant pack");
  const auto n = static_cast<int64_t>(uids.size());
  pack->set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS), CUDNN_TYPE_INT64, n, uids.data());
  pack->set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS), CUDNN_TYPE_VOID_PTR, n, pointers.data());
  pack->set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_VARIANT_PACK_WORKSPACE), CUDNN_TYPE_VOID_PTR, 1, &workspace);
  pack->finalize();
  return pack;
}

Descriptor make_operation_graph(const std::vector<cudnnBackendDescriptor_t>& ops, cudnnHandle_t handle,
                                const std::string& label) {
  Descriptor graph(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, label + ": operation graph");
  if (handle != nullptr) {
    graph.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATIONGRAPH_HANDLE), CUDNN_TYPE_HANDLE, 1, &handle);
  }
  graph.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATIONGRAPH_OPS), CUDNN_TYPE_BACKEND_DESCRIPTOR,
            static_cast<int64_t>(ops.size()), ops.data());
  graph.finalize();
  return graph;
}

HeuristicResults heuristic_engine_configs(const Descriptor& graph, const std::string& label) {
  const cudnnBackendDescriptor_t graph_raw = graph.get();
  Descriptor heur(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, label + ": engine heuristics (mode A)");
  heur.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH), CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
           &graph_raw);
  const cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
  heur.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_ENGINEHEUR_MODE), CUDNN_TYPE_HEUR_MODE, 1, &mode);
  heur.finalize();
  int64_t count = 0;
  check(cudnnBackendGetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count,
                                 nullptr),
        label + ": engine heuristics (mode A): count CUDNN_ATTR_ENGINEHEUR_RESULTS");
  if (count <= 0) {
    throw LibraryError("cuDNN", "CUDNN_STATUS_NOT_SUPPORTED",
                       label + ": engine heuristics (mode A) returned no engine config for this graph");
  }
  // A descriptor-typed attribute is read into descriptors the caller created (of the right type).
  std::vector<Descriptor> configs;
  std::vector<cudnnBackendDescriptor_t> raw;
  configs.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    configs.emplace_back(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, label + ": engine config " + std::to_string(i));
    raw.push_back(configs.back().get());
  }
  int64_t returned = 0;
  check(cudnnBackendGetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count,
                                 &returned, raw.data()),
        label + ": engine heuristics (mode A): get CUDNN_ATTR_ENGINEHEUR_RESULTS");
  returned = std::clamp<int64_t>(returned, 0, count);
  while (static_cast<int64_t>(configs.size()) > returned) configs.pop_back();
  return HeuristicResults{std::move(heur), std::move(configs)};
}

Descriptor make_execution_plan(cudnnHandle_t handle, const Descriptor& config, const std::string& name) {
  Descriptor plan(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, name);
  plan.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_EXECUTION_PLAN_HANDLE), CUDNN_TYPE_HANDLE, 1, &handle);
  plan.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG), config);
  plan.finalize();
  return plan;
}

int64_t plan_workspace_bytes(const Descriptor& plan) {
  return get_int64(plan, ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE));
}

EngineDescription describe_engine(const Descriptor& engine) {
  EngineDescription d;
  d.global_index = get_int64(engine, ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_ENGINE_GLOBAL_INDEX));

  std::array<cudnnBackendNumericalNote_t, kMaxNumericalNotes> numerical{};
  int64_t n = 0;
  check(cudnnBackendGetAttribute(engine.get(), CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                                 kMaxNumericalNotes, &n, numerical.data()),
        engine.name() + ": get CUDNN_ATTR_ENGINE_NUMERICAL_NOTE");
  d.numerical_notes.assign(numerical.begin(), numerical.begin() + std::clamp<int64_t>(n, 0, kMaxNumericalNotes));

  std::array<cudnnBackendBehaviorNote_t, kMaxBehaviorNotes> behavior{};
  n = 0;
  check(cudnnBackendGetAttribute(engine.get(), CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE,
                                 kMaxBehaviorNotes, &n, behavior.data()),
        engine.name() + ": get CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE");
  d.behavior_notes.assign(behavior.begin(), behavior.begin() + std::clamp<int64_t>(n, 0, kMaxBehaviorNotes));
  return d;
}

EngineDescription describe_config(const Descriptor& config) {
  // A descriptor-typed attribute is read into a descriptor the caller created (of the right type).
  Descriptor engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR, config.name() + ": engine");
  cudnnBackendDescriptor_t engine_raw = engine.get();
  int64_t n = 0;
  check(cudnnBackendGetAttribute(config.get(), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n,
                                 &engine_raw),
        config.name() + ": get CUDNN_ATTR_ENGINECFG_ENGINE");
  return describe_engine(engine);
}

int64_t engine_count(const Descriptor& graph) {
  return get_int64(graph, ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT));
}

Descriptor make_engine(const Descriptor& graph, int64_t global_index, const std::string& name) {
  Descriptor engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR, name);
  engine.set_desc(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_ENGINE_OPERATION_GRAPH), graph);
  engine.set(ARCHBENCH_CUDNN_ATTR(CUDNN_ATTR_ENGINE_GLOBAL_INDEX), CUDNN_TYPE_INT64, 1, &global_index);
  engine.finalize();
  return engine;
}

std::vector<KnobChoice> knob_choices(const Descriptor& config) {
  // As for the engine: the choices are read into knob-choice descriptors created here.
  std::deque<Descriptor> choices;
  std::vector<cudnnBackendDescriptor_t> raw;
  for (int64_t i = 0; i < kMaxKnobs; ++i) {
    choices.emplace_back(CUDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, config.name() + ": knob choice " + std::to_string(i));
    raw.push_back(choices.back().get());
  }
  int64_t n = 0;
  check(cudnnBackendGetAttribute(config.get(), CUDNN_ATTR_ENGINECFG_KNOB_CHOICES, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                                 kMaxKnobs, &n, raw.data()),
        config.name() + ": get CUDNN_ATTR_ENGINECFG_KNOB_CHOICES");
  const auto count_read = static_cast<size_t>(std::clamp<int64_t>(n, 0, kMaxKnobs));
  std::vector<KnobChoice> knobs;
  for (size_t i = 0; i < count_read; ++i) {
    const Descriptor& c = choices[i];
    cudnnBackendKnobType_t type{};
    int64_t value = 0;
    int64_t count = 0;
    check(cudnnBackendGetAttribute(c.get(), CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, CUDNN_TYPE_KNOB_TYPE, 1, &count, &type),
          c.name() + ": get CUDNN_ATTR_KNOB_CHOICE_KNOB_TYPE");
    check(cudnnBackendGetAttribute(c.get(), CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, CUDNN_TYPE_INT64, 1, &count, &value),
          c.name() + ": get CUDNN_ATTR_KNOB_CHOICE_KNOB_VALUE");
    knobs.push_back({static_cast<int64_t>(type), value});
  }
  return knobs;
}

std::string knob_type_name(int64_t type) {
  // cudnnBackendKnobType_t by value (cudnn_graph.h, cuDNN 9.19; the values are append-only). By
  // value, so that the deprecated enumerators need not be named.
  static constexpr std::array<const char*, 44> kNames{
      "SPLIT_K",      "SWIZZLE",     "TILE_SIZE",   "USE_TEX",        "EDGE",
      "KBLOCK",       "LDGA",        "LDGB",        "CHUNK_K",        "SPLIT_H",
      "WINO_TILE",    "MULTIPLY",    "SPLIT_K_BUF", "TILEK",          "STAGES",
      "REDUCTION_MODE", "CTA_SPLIT_K_MODE", "SPLIT_K_SLC", "IDX_MODE", "SLICED",
      "SPLIT_RS",     "SINGLEBUFFER", "LDGC",       "SPECFILT",       "KERNEL_CFG",
      "WORKSPACE",    "TILE_CGA",    "TILE_CGA_M",  "TILE_CGA_N",     "BLOCK_SIZE",
      "OCCUPANCY",    "ARRAY_SIZE_PER_THREAD", "NUM_C_PER_BLOCK", "SPLIT_COLS", "TILE_ROWS",
      "TILE_COLS",    "LOAD_SIZE",   "CTA_COUNT",   "STREAM_K",       "SPLIT_P_SLC",
      "TILE_M",       "TILE_N",      "WARP_SPEC_CFG", "SWAP_AB"};
  if (type >= 0 && type < static_cast<int64_t>(kNames.size())) return kNames[static_cast<size_t>(type)];
  return "knob " + std::to_string(type);
}

std::string numerical_note_name(cudnnBackendNumericalNote_t note) {
  switch (note) {
    case CUDNN_NUMERICAL_NOTE_TENSOR_CORE: return "TENSOR_CORE";
    case CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS: return "DOWN_CONVERT_INPUTS";
    case CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION: return "REDUCED_PRECISION_REDUCTION";
    case CUDNN_NUMERICAL_NOTE_FFT: return "FFT";
    case CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC: return "NONDETERMINISTIC";
    case CUDNN_NUMERICAL_NOTE_WINOGRAD: return "WINOGRAD";
    case CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_4x4: return "WINOGRAD_TILE_4x4";
    case CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_6x6: return "WINOGRAD_TILE_6x6";
    case CUDNN_NUMERICAL_NOTE_WINOGRAD_TILE_13x13: return "WINOGRAD_TILE_13x13";
    case CUDNN_NUMERICAL_NOTE_STRICT_NAN_PROP: return "STRICT_NAN_PROP";
    default: return "numerical note " + std::to_string(static_cast<int>(note));
  }
}

std::string behavior_note_name(cudnnBackendBehaviorNote_t note) {
  // By value, as for the knobs: the later notes are not in every cuDNN 9 header.
  static constexpr std::array<const char*, 5> kNames{"RUNTIME_COMPILATION", "REQUIRES_FILTER_INT8x32_REORDER",
                                                     "REQUIRES_BIAS_INT8x32_REORDER",
                                                     "SUPPORTS_CUDA_GRAPH_NATIVE_API", "CUBLASLT_DEPENDENCY"};
  const auto v = static_cast<int64_t>(note);
  if (v >= 0 && v < static_cast<int64_t>(kNames.size())) return kNames[static_cast<size_t>(v)];
  return "behavior note " + std::to_string(v);
}

std::string knobs_text(const std::vector<KnobChoice>& knobs) {
  if (knobs.empty()) return "none";
  std::string s;
  for (const auto& k : knobs) {
    if (!s.empty()) s += ' ';
    s += knob_type_name(k.type) + "=" + std::to_string(k.value);
  }
  return s;
}

}  // namespace archbench::cudnn_backend
