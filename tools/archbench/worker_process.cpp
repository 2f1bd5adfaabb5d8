#include "tools/archbench/worker_process.hpp"

#include <vector>
#include <string>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/report/json.hpp"

extern char** environ;

namespace archbench::cli {
namespace {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "archbench.XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] std::string file(const char* name) const { return (std::filesystem::path(path_) / name).string(); }

 private:
  std::string path_;
};

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

void append_line(const std::string& path, const std::string& json_line) {
  std::ofstream f(path, std::ios::app);
  f << json_line << '\n';
  f.flush();
  if (!f) throw std::runtime_error("cannot append to " + path);
}

WorkerOutcome run_worker(const std::string& phase, int device, const std::vector<std::string>& ids, uint64_t seed,
                         bool hot_l2) {
  TempDir dir;
  const std::string ids_path = dir.file("ids"), out_path = dir.file("results.jsonl");
  {
    std::ofstream f(ids_path);
    for (const auto& id : ids) f << id << '\n';
    if (!f) throw std::runtime_error("cannot write " + ids_path);
  }
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::vector<std::string> args{self, "worker", "--phase", phase, "--device", std::to_string(device),
                                "--ids", ids_path, "--out", out_path, "--seed", std::to_string(seed)};
  if (hot_l2) args.emplace_back("--hot-l2");

  // The check phase runs with CUDA_LAUNCH_BLOCKING=1; the timing phase without it.
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "CUDA_LAUNCH_BLOCKING=", 21) != 0) env.emplace_back(*e);
  }
  if (phase == "check") env.emplace_back("CUDA_LAUNCH_BLOCKING=1");

  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = 0;
  if (int rc = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), envp.data()); rc != 0) {
    throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(rc));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }

  WorkerOutcome out;
  std::ifstream in(out_path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    if (j.at("type") == "ceilings") out.ceilings = j.at("ceilings").get<Ceilings>();
    else out.results.push_back(j.at("result").get<OperatorResult>());
  }
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    out.failure = "the " + phase + " worker " + describe_wait_status(status);
  }
  return out;
}

}  // namespace archbench::cli
