#include "tools/archbench/worker_process.hpp"

#include <cerrno>
#include <csignal>
#include <exception>
#include <iterator>
#include <mutex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "harness/result/result_json.hpp"
#include "tools/archbench/temp_dir.hpp"
#include "tools/archbench/work_queue.hpp"

extern char** environ;

namespace archbench::cli {
namespace {

using Clock = std::chrono::steady_clock;

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

// Reads the complete lines a worker has appended since the last call.
class LineFollower {
 public:
  explicit LineFollower(std::string path) : path_(std::move(path)) {}
  std::vector<std::string> poll() {
    std::ifstream f(path_, std::ios::binary);
    if (!f) return {};
    f.seekg(static_cast<std::streamoff>(offset_));
    std::ostringstream rest;
    rest << f.rdbuf();
    const std::string text = rest.str();
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
      if (nl > start) lines.push_back(text.substr(start, nl - start));
      start = nl + 1;
    }
    offset_ += start;  // a partial last line is read again next time
    return lines;
  }

 private:
  std::string path_;
  size_t offset_ = 0;
};

struct SpawnResult {
  int status = 0;
  bool hung = false;
  std::string in_flight;  // announced but not reported when the worker ended
  double in_flight_deadline_s = 0;
};

pid_t spawn_worker(const std::string& exe, const std::vector<std::string>& args, const WorkerRequest& req) {
  const Phase phase = req.task.phase;
  // The check phase runs with CUDA_LAUNCH_BLOCKING=1; the timing phase without it.
  std::vector<std::string> env;
  auto overridden = [&](const char* kv) {
    if (std::strncmp(kv, "CUDA_LAUNCH_BLOCKING=", 21) == 0) return true;
    for (const auto& [name, value] : req.env) {
      if (std::strncmp(kv, name.c_str(), name.size()) == 0 && kv[name.size()] == '=') return true;
    }
    return false;
  };
  for (char** e = environ; *e != nullptr; ++e) {
    if (!overridden(*e)) env.emplace_back(*e);
  }
  if (phase == Phase::Check) env.emplace_back("CUDA_LAUNCH_BLOCKING=1");
  for (const auto& [name, value] : req.env) {
    if (value) env.push_back(name + "=" + *value);
  }
  std::vector<std::string> argv_storage = args;
  std::vector<char*> argv, envp;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  // A worker reports through its reply file; anything it (or a library in it) prints goes to stderr,
  // so that the parent's stdout holds only the report, or only the JSON of `--json -`.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start a worker process (" + exe + "): " + std::strerror(rc));
  return pid;
}

// Waits for `pid` while following its output; kills it when the operator it announced runs past
// its deadline.
SpawnResult supervise(pid_t pid, LineFollower& follower, const DeadlineFn& deadline_s, WorkerOutcome& out,
                      const std::function<void(const WorkerEvent&)>& on_event) {
  SpawnResult r;
  Clock::time_point started{};
  auto consume = [&] {
    for (const auto& line : follower.poll()) {
      const auto m = nlohmann::json::parse(line).get<WorkerMessage>();
      switch (m.kind) {
        case WorkerMessage::Kind::Start:
          r.in_flight = m.id;
          r.in_flight_deadline_s = deadline_s(r.in_flight);
          started = Clock::now();
          if (on_event) on_event({WorkerEvent::Kind::Started, r.in_flight, nullptr, WorkerFault::None});
          break;
        case WorkerMessage::Kind::Ceilings:
          if (!out.ceilings) out.ceilings = m.ceilings;
          break;
        case WorkerMessage::Kind::Load: out.load_ms[m.id] = m.load_ms; break;
        case WorkerMessage::Kind::Operator:
          out.results.push_back(*m.result);
          r.in_flight.clear();
          if (on_event) on_event({WorkerEvent::Kind::Finished, out.results.back().id, &out.results.back(), WorkerFault::None});
          break;
      }
    }
  };
  auto reap = [&](int options) {
    for (;;) {
      const pid_t w = waitpid(pid, &r.status, options);
      if (w == pid) return true;
      if (w == 0) return false;
      if (errno != EINTR) throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
    }
  };
  for (;;) {
    const bool ended = reap(WNOHANG);
    consume();
    if (ended) return r;
    if (!r.in_flight.empty() &&
        std::chrono::duration<double>(Clock::now() - started).count() > r.in_flight_deadline_s) {
      // A hung kernel cannot be interrupted from inside the process; ending the process
      // destroys its context, which stops the kernel.
      r.hung = true;
      kill(pid, SIGTERM);
      const auto term_sent = Clock::now();
      while (!reap(WNOHANG)) {
        if (Clock::now() - term_sent > std::chrono::seconds(5)) {
          kill(pid, SIGKILL);
          reap(0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      consume();
      return r;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

WorkerOutcome run_phase(const WorkerRequest& req) {
  WorkerOutcome out;
  TempDir dir("archbench", "temporary directory");
  const std::string exe =
      req.executable.empty() ? std::filesystem::read_symlink("/proc/self/exe").string() : req.executable;
  const std::string phase(phase_name(req.task.phase));
  WorkerTask task = req.task;  // each worker gets the operators still to run
  while (!task.operators.empty()) {
    const std::string tag = std::to_string(out.workers_started);
    const std::string request_path = dir.file("request" + tag + ".json");
    task.reply_path = dir.file("reply" + tag + ".jsonl");
    write_task(request_path, task);
    const std::vector<std::string> args{exe, "worker", "--request", request_path};

    const size_t reported_before = out.results.size();
    LineFollower follower(task.reply_path);
    const pid_t pid = spawn_worker(exe, args, req);
    ++out.workers_started;
    const SpawnResult sr = supervise(pid, follower, req.deadline_s, out, req.on_event);
    const bool clean_exit = WIFEXITED(sr.status) && WEXITSTATUS(sr.status) == 0;
    const bool context_lost = WIFEXITED(sr.status) && WEXITSTATUS(sr.status) == kWorkerContextLost;
    if (clean_exit && sr.in_flight.empty()) break;

    // Where to resume: after the operator that ended this worker.
    std::string last;
    if (sr.hung || (!context_lost && !sr.in_flight.empty())) {
      OperatorFault f{sr.in_flight, sr.hung ? WorkerFault::Hung : WorkerFault::Crashed, ""};
      f.error = sr.hung ? "hung: no result within its deadline of " + std::to_string(static_cast<int>(sr.in_flight_deadline_s)) +
                              " s; the " + phase + " worker was killed (SIGTERM, then SIGKILL after 5 s)"
                        : "crashed: the " + phase + " worker " + describe_wait_status(sr.status) + " while running it";
      out.faults.push_back(f);
      if (req.on_event) req.on_event({WorkerEvent::Kind::Fault, f.id, nullptr, f.fault});
      last = sr.in_flight;
    } else if (context_lost && out.results.size() > reported_before) {
      last = out.results.back().id;
    } else {
      // Ended without blaming an operator (could not start CUDA, bad arguments, ...): stop here.
      out.failure = "the " + phase + " worker " + describe_wait_status(sr.status);
      break;
    }
    auto it = std::ranges::find(task.operators, last, &OperatorResult::id);
    if (it == task.operators.end()) {
      out.failure = "the " + phase + " worker reported an operator it was not given: " + last;
      break;
    }
    // A shared queue has moved past `last` already: the next worker takes what is left there.
    if (task.queue_path.empty()) task.operators.erase(task.operators.begin(), it + 1);
  }
  return out;
}

WorkerOutcome run_phase_parallel(const WorkerRequest& req, int workers) {
  workers = std::min<int>(workers, static_cast<int>(req.task.operators.size()));
  if (workers <= 1) return run_phase(req);
  // The queue hands out the costliest operators first (longest processing time first), so that the
  // phase does not end with one worker still busy with a heavy operator it drew last. Cost: the
  // benchmark shape's flops, which rank the float64 references and library set-up at the check
  // shapes well enough (a quick run on an H100: 9.0 s of checks in registry order, 8.1 s sorted, in
  // a replay of its measured check times on 8 workers). The results are settled by id, in any order.
  WorkerRequest sorted = req;
  std::ranges::stable_sort(sorted.task.operators, std::ranges::greater{}, &OperatorResult::flops);
  std::mutex events;
  std::vector<WorkerRequest> parts(static_cast<size_t>(workers), sorted);
  for (auto& p : parts) {
    if (req.on_event) {
      p.on_event = [&](const WorkerEvent& e) {
        const std::scoped_lock lock(events);
        req.on_event(e);
      };
    }
  }
  // Every worker gets every operator and takes the next one not yet taken from the phase's queue.
  const TempDir dir("archbench", "temporary directory");
  const std::string queue = dir.file("queue");
  create_work_queue(queue);
  for (auto& p : parts) p.task.queue_path = queue;
  std::vector<WorkerOutcome> outcomes(parts.size());
  std::vector<std::exception_ptr> errors(parts.size());
  {
    std::vector<std::jthread> threads;
    for (size_t w = 0; w < parts.size(); ++w) {
      threads.emplace_back([&, w] {
        try {
          outcomes[w] = run_phase(parts[w]);
        } catch (...) {
          errors[w] = std::current_exception();
        }
      });
    }
  }  // joined here
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  WorkerOutcome out;
  for (auto& o : outcomes) {
    std::ranges::move(o.results, std::back_inserter(out.results));
    std::ranges::move(o.faults, std::back_inserter(out.faults));
    if (!out.ceilings) out.ceilings = o.ceilings;
    out.workers_started += o.workers_started;
    if (!o.failure.empty()) out.failure += (out.failure.empty() ? "" : "; ") + o.failure;
    out.load_ms.merge(o.load_ms);
  }
  return out;
}

int check_workers(size_t device_memory_bytes, bool quick) {
  const int by_cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()) / 2);
  const int by_memory = static_cast<int>(device_memory_bytes / ((quick ? size_t{4} : size_t{16}) << 30));
  return std::clamp(std::min(by_cores, by_memory), 1, 8);
}

}  // namespace archbench::cli
