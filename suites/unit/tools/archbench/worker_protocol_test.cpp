// The parent-worker protocol (worker_protocol.hpp): a task and each kind of message survive the
// trip through JSON whole, a request file is read back as it was written, and a malformed one is
// refused with the file named.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tools/archbench/worker_protocol.hpp"

namespace archbench::cli {
namespace {

WorkerTask sample_task() {
  WorkerTask t;
  t.phase = Phase::Time;
  t.device = 1;
  t.seed = 42;
  t.hot_l2 = true;
  t.cuda_graph = CudaGraphMode::Auto;
  t.reply_path = "/tmp/reply.jsonl";
  OperatorResult r;
  r.id = "matmul/gemm_tc/f16/M8192_N960_K320";
  r.family = "matmul";
  r.name = "gemm_tc";
  r.dtype = DType::F16;
  r.shape = "M8192_N960_K320";
  r.image.status = ImageOutcome::Sass;
  r.image.label = "sass sm_90";
  r.phase_seconds[Phase::Check] = 0.25;
  t.operators.push_back(r);
  return t;
}

TEST(WorkerProtocol, ATaskSurvivesJson) {
  const WorkerTask t = sample_task();
  const auto back = nlohmann::json(t).get<WorkerTask>();
  EXPECT_EQ(back.phase, Phase::Time);
  EXPECT_EQ(back.device, 1);
  EXPECT_EQ(back.seed, 42u);
  EXPECT_TRUE(back.hot_l2);
  EXPECT_EQ(back.cuda_graph, CudaGraphMode::Auto);
  EXPECT_EQ(back.reply_path, "/tmp/reply.jsonl");
  ASSERT_EQ(back.operators.size(), 1u);
  // The checked record the timing worker completes: what the check found is all there.
  EXPECT_EQ(back.operators[0].id, t.operators[0].id);
  EXPECT_EQ(back.operators[0].dtype, DType::F16);
  EXPECT_EQ(back.operators[0].image.status, ImageOutcome::Sass);
  EXPECT_DOUBLE_EQ(back.operators[0].phase_seconds.at(Phase::Check), 0.25);
}

TEST(WorkerProtocol, EveryMessageKindSurvivesJson) {
  Ceilings c;
  c.f16_tflops = 749;
  OperatorResult r;
  r.id = "norm/rmsnorm/bf16/S";
  for (const WorkerMessage& m :
       {WorkerMessage{WorkerMessage::Kind::Start, "a/b/f16/S", 0, std::nullopt, std::nullopt},
        WorkerMessage{WorkerMessage::Kind::Load, "a/b/f16/S", 12.5, std::nullopt, std::nullopt},
        WorkerMessage{WorkerMessage::Kind::Ceilings, "", 0, c, std::nullopt},
        WorkerMessage{WorkerMessage::Kind::Operator, r.id, 0, std::nullopt, r}}) {
    const auto back = nlohmann::json(m).get<WorkerMessage>();
    EXPECT_EQ(back.kind, m.kind) << name_of(kWorkerMessageKinds, m.kind);
    switch (m.kind) {
      case WorkerMessage::Kind::Start: EXPECT_EQ(back.id, m.id); break;
      case WorkerMessage::Kind::Load:
        EXPECT_EQ(back.id, m.id);
        EXPECT_DOUBLE_EQ(back.load_ms, 12.5);
        break;
      case WorkerMessage::Kind::Ceilings: EXPECT_DOUBLE_EQ(back.ceilings.value().f16_tflops, 749); break;
      case WorkerMessage::Kind::Operator: EXPECT_EQ(back.result.value().id, r.id); break;
    }
  }
}

TEST(WorkerProtocol, ARequestFileIsReadBackAndABadOneNamed) {
  const auto dir = std::filesystem::temp_directory_path() / ("archbench-protocol-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "request.json").string();
  write_task(path, sample_task());
  EXPECT_EQ(read_task(path).operators.at(0).id, "matmul/gemm_tc/f16/M8192_N960_K320");

  std::ofstream(path) << R"({"phase": "warp", "cuda_graph": "off"})";
  try {
    (void)read_task(path);
    ADD_FAILURE() << "an unknown phase was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("warp"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_task((dir / "absent.json").string()), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace archbench::cli
