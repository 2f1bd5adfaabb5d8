#include "tools/archbench/worker_protocol.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/result/json_enum.hpp"
#include "harness/result/json_fields.hpp"
#include "harness/result/result_json.hpp"
#include "harness/util/atomic_file.hpp"

namespace archbench::cli {

using nlohmann::json;

namespace {

// The task's fields under the same key both ways (json_fields.hpp); `t` is const
// when writing. The enums are written and read beside the list.
template <typename T, typename Field>
void task_fields(T& t, Field&& field) {
  field("device", t.device);
  field("operators", t.operators);
  field("reply", t.reply_path);
  field("queue", t.queue_path);
  field("seed", t.seed);
  field("hot_l2", t.hot_l2);
  field("load_times", t.load_times);
  field("probe_only", t.probe_only);
  field("quick", t.quick);
}

}  // namespace

void to_json(json& j, const WorkerTask& t) {
  j = json{{"phase", phase_name(t.phase)}, {"cuda_graph", cuda_graph_mode_name(t.cuda_graph)}};
  task_fields(t, field_writer(j));
}

void from_json(const json& j, WorkerTask& t) {
  t.phase = read_enum(j, "phase", "phase", kPhases);
  t.cuda_graph = read_enum(j, "cuda_graph", "cuda_graph", kCudaGraphModes);
  task_fields(t, field_reader(j));
}

void to_json(json& j, const WorkerMessage& m) {
  j = json{{"type", name_of(kWorkerMessageKinds, m.kind)}};
  switch (m.kind) {
    case WorkerMessage::Kind::Start: j["id"] = m.id; break;
    case WorkerMessage::Kind::Load: j["id"] = m.id; j["ms"] = m.load_ms; break;
    case WorkerMessage::Kind::Ceilings: j["ceilings"] = m.ceilings.value(); break;
    case WorkerMessage::Kind::Operator: j["result"] = m.result.value(); break;
  }
}

void from_json(const json& j, WorkerMessage& m) {
  m = {};
  m.kind = read_enum(j, "type", "type", kWorkerMessageKinds);
  switch (m.kind) {
    case WorkerMessage::Kind::Start: m.id = j.at("id").get<std::string>(); break;
    case WorkerMessage::Kind::Load:
      m.id = j.at("id").get<std::string>();
      m.load_ms = j.at("ms").get<double>();
      break;
    case WorkerMessage::Kind::Ceilings: m.ceilings = j.at("ceilings").get<Ceilings>(); break;
    case WorkerMessage::Kind::Operator: m.result = j.at("result").get<OperatorResult>(); break;
  }
}

void write_task(const std::string& path, const WorkerTask& task) { write_file_atomically(path, json(task).dump()); }

WorkerTask read_task(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read the worker request " + path);
  std::ostringstream text;
  text << f.rdbuf();
  try {
    return json::parse(text.str()).get<WorkerTask>();
  } catch (const json::exception& e) {
    throw std::runtime_error("the worker request " + path + " is malformed: " + e.what());
  }
}

void send(const std::string& reply_path, const WorkerMessage& message) {
  std::ofstream f(reply_path, std::ios::app);
  f << json(message).dump() << '\n';
  f.flush();
  if (!f) throw std::runtime_error("cannot append to " + reply_path);
}

}  // namespace archbench::cli
