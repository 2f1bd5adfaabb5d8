// The parent side of worker isolation, without a GPU: a fake worker (a shell script speaking the
// worker's line protocol) crashes, hangs and loses its context on chosen operators, and run_phase
// must blame exactly those, replace the worker and finish the rest.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include <filesystem>
#include <mutex>
#include <set>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/result/result_json.hpp"
#include "tools/archbench/worker_process.hpp"
#include "suites/unit/tools/archbench/stand_in_worker.hpp"

namespace archbench::cli {
namespace {

// The bare records of a task, one per id (what the check phase gives its workers).
std::vector<OperatorResult> records(const std::vector<std::string>& ids) {
  std::vector<OperatorResult> out;
  for (const auto& id : ids) {
    OperatorResult r;
    r.id = id;
    out.push_back(r);
  }
  return out;
}

class WorkerSupervision : public testing::Test {
 protected:
  // Crashes, hangs, loses its context or exits badly on ids that start so; reports the others.
  StandInWorker worker_{"supervision", [] { OperatorResult r; r.family = "fake"; return r; }(), R"sh(#!/bin/bash
dir="$(dirname "$0")"; out="$(python3 "$dir/request.py" "$3" "$3.ids")"
while id="$(python3 "$dir/next.py" "$3")"; [ -n "$id" ]; do
  echo "{\"type\":\"start\",\"id\":\"$id\"}" >> "$out"
  case "$id" in
    crash*) kill -SEGV $$ ;;
    hang*) exec sleep 60 ;;
    sticky*) sed "s/__ID__/$id/; s/\"fault\":null/\"fault\":\"context-lost\"/" "$dir/result.json" >> "$out"; exit 86 ;;
    badexit*) exit 3 ;;
  esac
  sed "s/__ID__/$id/" "$dir/result.json" >> "$out"
done
)sh"};

  WorkerOutcome run(const std::vector<std::string>& ids, double deadline_s = 30) {
    WorkerRequest req;
    req.task.phase = Phase::Check;
    req.task.operators = records(ids);
    req.deadline_s = [deadline_s](const std::string&) { return deadline_s; };
    req.executable = worker_.executable();
    return run_phase(req);
  }

  static std::vector<std::string> reported(const WorkerOutcome& o) {
    std::vector<std::string> ids;
    for (const auto& r : o.results) ids.push_back(r.id);
    return ids;
  }
};

TEST_F(WorkerSupervision, HealthyRunNeedsOneWorker) {
  const auto o = run({"a", "b", "c"});
  EXPECT_EQ(reported(o), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(o.faults.empty());
  EXPECT_EQ(o.workers_started, 1);
  EXPECT_TRUE(o.failure.empty()) << o.failure;
}

TEST_F(WorkerSupervision, CrashIsBlamedOnTheOperatorInFlightAndTheRunGoesOn) {
  const auto o = run({"a", "crash1", "b"});
  EXPECT_EQ(reported(o), (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(o.faults.size(), 1u);
  EXPECT_EQ(o.faults[0].id, "crash1");
  EXPECT_EQ(o.faults[0].fault, WorkerFault::Crashed);
  EXPECT_NE(o.faults[0].error.find("signal 11"), std::string::npos) << o.faults[0].error;
  EXPECT_EQ(o.workers_started, 2);
  EXPECT_TRUE(o.failure.empty()) << o.failure;
}

TEST_F(WorkerSupervision, HungOperatorIsKilledAtItsDeadline) {
  const auto start = std::chrono::steady_clock::now();
  const auto o = run({"hang1", "a"}, /*deadline_s=*/0.5);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 20.0) << "the fake worker sleeps 60 s; it must have been killed";
  EXPECT_EQ(reported(o), (std::vector<std::string>{"a"}));
  ASSERT_EQ(o.faults.size(), 1u);
  EXPECT_EQ(o.faults[0].fault, WorkerFault::Hung);
  EXPECT_NE(o.faults[0].error.find("deadline"), std::string::npos) << o.faults[0].error;
}

TEST_F(WorkerSupervision, StickyErrorReplacesTheWorkerAfterItsReport) {
  const auto o = run({"a", "sticky1", "b", "sticky2", "c"});
  EXPECT_EQ(reported(o), (std::vector<std::string>{"a", "sticky1", "b", "sticky2", "c"}));
  EXPECT_EQ(o.results[1].fault, WorkerFault::ContextLost);
  EXPECT_EQ(o.results[2].fault, WorkerFault::None);
  EXPECT_TRUE(o.faults.empty());
  EXPECT_EQ(o.workers_started, 3);
}

TEST_F(WorkerSupervision, EveryFaultKindInOneRun) {
  const auto o = run({"crash1", "sticky1", "hang1", "a"}, 0.5);
  EXPECT_EQ(reported(o), (std::vector<std::string>{"sticky1", "a"}));
  ASSERT_EQ(o.faults.size(), 2u);
  EXPECT_EQ(o.faults[0].fault, WorkerFault::Crashed);
  EXPECT_EQ(o.faults[1].fault, WorkerFault::Hung);
  EXPECT_EQ(o.workers_started, 4);
}

// The quick tier's parallel check: every operator reported once, faults blamed as with one
// worker, events delivered one at a time, one worker per share.
TEST_F(WorkerSupervision, ParallelWorkersShareTheOperatorsAndKeepTheBlame) {
  WorkerRequest req;
  req.task.phase = Phase::Check;
  req.task.operators = records({"a", "b", "crash1", "c", "d", "e", "f"});
  req.deadline_s = [](const std::string&) { return 30.0; };
  req.executable = worker_.executable();
  int finished = 0, in_call = 0, overlapped = 0;
  req.on_event = [&](const WorkerEvent& e) {
    if (++in_call > 1) ++overlapped;
    if (e.kind == WorkerEvent::Kind::Finished) ++finished;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    --in_call;
  };
  const auto o = run_phase_parallel(req, 3);
  auto ids = reported(o);
  std::ranges::sort(ids);
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c", "d", "e", "f"}));
  ASSERT_EQ(o.faults.size(), 1u);
  EXPECT_EQ(o.faults[0].id, "crash1");
  EXPECT_EQ(o.workers_started, 4);  // three, and one replacing the crashed one
  EXPECT_EQ(finished, 6);
  EXPECT_EQ(overlapped, 0);
  EXPECT_TRUE(o.failure.empty()) << o.failure;
  // Fewer operators than workers: one worker each; one worker: run_phase itself.
  req.task.operators = records({"a"});
  EXPECT_EQ(run_phase_parallel(req, 8).workers_started, 1);
  EXPECT_EQ(check_workers(size_t{2} << 30, true), 1);   // a 2 GiB device: one
  EXPECT_EQ(check_workers(size_t{24} << 30, false), 1);  // a 24 GB card's full check: one
  EXPECT_LE(check_workers(size_t{140} << 30, true), 8);
  EXPECT_GE(check_workers(size_t{140} << 30, true), 1);
  EXPECT_LE(check_workers(size_t{140} << 30, false), check_workers(size_t{140} << 30, true));
}

// Parallel workers take operators from one queue: while one worker is held by a slow operator,
// the other runs all the rest (fixed every-second shares would leave it half of them).
TEST_F(WorkerSupervision, AWorkerHeldBySlowOperatorLeavesTheRestToTheOthers) {
  StandInWorker pids{"supervision-pids", [] { OperatorResult r; r.error = "__PID__"; return r; }(), R"sh(#!/bin/bash
dir="$(dirname "$0")"; out="$(python3 "$dir/request.py" "$3" "$3.ids")"
while id="$(python3 "$dir/next.py" "$3")"; [ -n "$id" ]; do
  echo "{\"type\":\"start\",\"id\":\"$id\"}" >> "$out"
  case "$id" in slow*) sleep 3 ;; esac
  sed "s/__ID__/$id/; s/__PID__/$$/" "$dir/result.json" >> "$out"
done
)sh"};
  WorkerRequest req;
  req.task.phase = Phase::Check;
  req.task.operators = records({"slow", "a", "b", "c", "d", "e", "f", "g"});
  req.deadline_s = [](const std::string&) { return 30.0; };
  req.executable = pids.executable();
  const auto o = run_phase_parallel(req, 2);
  ASSERT_EQ(o.results.size(), 8u) << o.failure;
  EXPECT_EQ(o.workers_started, 2);
  const std::string slow_worker = std::ranges::find(o.results, "slow", &OperatorResult::id)->error;
  const auto by_slow_worker = std::ranges::count(o.results, slow_worker, &OperatorResult::error);
  EXPECT_EQ(by_slow_worker, 1) << "the worker held by the slow operator also ran others";
}

TEST_F(WorkerSupervision, TheSharedQueueHandsOutTheCostliestOperatorsFirst) {
  StandInWorker paced{"supervision-paced", OperatorResult{}, R"sh(#!/bin/bash
dir="$(dirname "$0")"; out="$(python3 "$dir/request.py" "$3" "$3.ids")"
while id="$(python3 "$dir/next.py" "$3")"; [ -n "$id" ]; do
  echo "{\"type\":\"start\",\"id\":\"$id\"}" >> "$out"
  sleep 0.5
  sed "s/__ID__/$id/" "$dir/result.json" >> "$out"
done
)sh"};
  WorkerRequest req;
  req.task.phase = Phase::Check;
  req.task.operators = records({"a", "b", "c", "heavy", "d", "heavier"});
  for (auto& r : req.task.operators) r.flops = r.id == "heavier" ? 2e12 : r.id == "heavy" ? 1e12 : 1e6;
  req.deadline_s = [](const std::string&) { return 30.0; };
  req.executable = paced.executable();
  std::mutex mutex;
  std::vector<std::string> started;
  req.on_event = [&](const WorkerEvent& e) {
    const std::scoped_lock lock(mutex);
    if (e.kind == WorkerEvent::Kind::Started) started.push_back(e.id);
  };
  const auto o = run_phase_parallel(req, 2);
  ASSERT_EQ(o.results.size(), 6u) << o.failure;
  ASSERT_EQ(started.size(), 6u);
  // Two workers each take one operator, then wait 0.5 s: the first two taken are the two heaviest.
  EXPECT_EQ((std::set<std::string>{started[0], started[1]}), (std::set<std::string>{"heavier", "heavy"}));
}

TEST_F(WorkerSupervision, NonZeroExitWhileRunningAnOperatorIsThatOperatorsCrash) {
  // exit(3) in the middle of an announced operator (for example a library calling exit()).
  const auto o = run({"badexit", "a"});
  EXPECT_EQ(reported(o), (std::vector<std::string>{"a"}));
  ASSERT_EQ(o.faults.size(), 1u);
  EXPECT_EQ(o.faults[0].id, "badexit");
  EXPECT_EQ(o.workers_started, 2);
}

TEST_F(WorkerSupervision, MissingExecutableIsAClearError) {
  WorkerRequest req;
  req.task.phase = Phase::Check;
  req.task.operators = records({"a"});
  req.executable = (std::filesystem::path(worker_.executable()).parent_path() / "no_such_worker").string();
  // posix_spawn reports ENOENT either directly or as exit status 127 of the child.
  try {
    const auto o = run_phase(req);
    EXPECT_FALSE(o.failure.empty());
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_worker"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace archbench::cli
