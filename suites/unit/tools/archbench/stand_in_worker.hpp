// A stand-in for `archbench worker` in the unit tests that need no GPU: a fresh temporary folder
// holding `fake_worker`, a bash script speaking the worker's line protocol (worker_protocol.hpp;
// argv: worker --request FILE), result.json, the operator line it reports: the given result with
// the id "__ID__", which the script replaces by each id it reads, and request.py, which the script
// runs on its request: `out="$(python3 "$dir/request.py" "$3" IDS)"` writes the task's operator ids
// to IDS, one per line, and prints the reply file; next.py, which `id="$(python3 "$dir/next.py" "$3")"`
// runs for each operator: it prints the next id to run, or nothing once there is none, taking it
// from the task's shared queue (work_queue.hpp: the index under flock) when the task names one, else
// in order. The folder goes when the stand-in does.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/result/result_json.hpp"

namespace archbench::cli {

class StandInWorker {
 public:
  // `name` makes the folder's name (archbench-NAME-PID) unique to its test file.
  StandInWorker(const std::string& name, OperatorResult reported, const std::string& script)
      : dir_(std::filesystem::temp_directory_path() / ("archbench-" + name + "-" + std::to_string(getpid()))) {
    std::filesystem::create_directories(dir_);
    reported.id = "__ID__";
    std::ofstream(dir_ / "result.json") << nlohmann::json{{"type", "operator"}, {"result", reported}}.dump() << "\n";
    std::ofstream(dir_ / "fake_worker") << script;
    std::ofstream(dir_ / "request.py") << "import json, sys\n"
                                          "task = json.load(open(sys.argv[1]))\n"
                                          "open(sys.argv[2], 'w').write(''.join(o['id'] + '\\n' for o in task['operators']))\n"
                                          "print(task['reply'])\n";
    std::ofstream(dir_ / "next.py") << "import fcntl, json, os, sys\n"
                                       "task = json.load(open(sys.argv[1]))\n"
                                       "ids = [o['id'] for o in task['operators']]\n"
                                       "path = task['queue'] or sys.argv[1] + '.next'\n"
                                       "if not os.path.exists(path): open(path, 'w').write('0\\n')\n"
                                       "with open(path, 'r+') as f:\n"
                                       "    fcntl.flock(f, fcntl.LOCK_EX)\n"
                                       "    i = int(f.read())\n"
                                       "    if i < len(ids):\n"
                                       "        f.seek(0); f.truncate(); f.write(f'{i + 1}\\n'); f.flush()\n"
                                       "        print(ids[i])\n";
    chmod((dir_ / "fake_worker").c_str(), 0755);
  }
  ~StandInWorker() { std::filesystem::remove_all(dir_); }
  StandInWorker(const StandInWorker&) = delete;
  StandInWorker& operator=(const StandInWorker&) = delete;

  [[nodiscard]] std::string executable() const { return (dir_ / "fake_worker").string(); }

 private:
  std::filesystem::path dir_;
};

}  // namespace archbench::cli
