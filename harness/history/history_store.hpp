// The results store of `archbench history`: every recorded run, per runner (GPU UUID) and
// operator, in one SQLite file (WAL, schema version in PRAGMA user_version; docs/history.md,
// "The store"). Adding is idempotent (a run's digest is its key) and one transaction per run, so
// concurrent writers and a writer killed mid-way leave a consistent store; a file that is not an
// archbench store, or one of a newer schema, is refused and never written.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/baseline/baseline_file.hpp"
#include "harness/report/stored_run.hpp"

namespace archbench::history {

// 2: operator ids in a table of their own (a result row of ~30 bytes), and each run's full device
// results kept beside its medians (run_results), for baselines rebuilt from the history. A store of
// schema 1 is upgraded when opened (its runs keep their medians; they have no full results).
inline constexpr int kStoreSchemaVersion = 2;
// A runner's newest runs whose full results are kept (about 80 kB each for a full H200 run): enough
// for a baseline of the runs since its last change point; older runs keep their medians only.
inline constexpr size_t kKeptResultsPerRunner = 30;

class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One device of one run, as stored.
struct RecordedRun {
  int64_t id = 0;
  std::string digest;      // what makes it the same run when added twice
  std::string runner;      // the GPU's UUID; "host/index" for a run that recorded none
  std::string host, device_key, device_name;
  std::string started_at;  // the run's, else when it was added (UTC, ISO 8601)
  // What a change point names when it differs between two runs: revision, arch list, driver and
  // runtime versions, cuBLAS and cuDNN as the library operators reported them.
  nlohmann::json environment;
};

struct RecordedResult {
  int64_t run = 0;
  std::string op;                    // operator id
  std::string image;                 // image status ("sass", "library", "missing", ...)
  bool failed = false;               // no image, wrong answer, error
  std::optional<double> median_ms;   // absent when not timed
};

class HistoryStore {
 public:
  // Opens (or, with `create`, makes) a store. Throws HistoryError naming the file and the cause.
  static HistoryStore open(const std::string& path, bool create);
  HistoryStore(HistoryStore&&) noexcept;
  HistoryStore& operator=(HistoryStore&&) noexcept;
  ~HistoryStore();

  // Records every device of a run; returns how many were new (0 for a run already recorded).
  size_t add(const StoredRun& run);
  // Copies every run of another store that this one lacks; returns how many.
  size_t merge_from(const HistoryStore& other);

  [[nodiscard]] std::vector<RecordedRun> runs() const;  // in run order (started_at, then id)
  [[nodiscard]] std::vector<RecordedResult> results(const std::string& runner) const;  // by operator, run order
  // The run's full device results, as recorded (every sample, build, device, timer floor); nullopt
  // for a run recorded before schema 2 or older than its runner's newest kKeptResultsPerRunner.
  [[nodiscard]] std::optional<DeviceResults> device_results(int64_t run) const;

 private:
  struct Impl;
  explicit HistoryStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The store as output names it: a PostgreSQL connection string without its password
// ("password=..." and the one in "postgresql://user:secret@host/db"), an SQLite path as given.
[[nodiscard]] std::string store_label(const std::string& store);

// The runner, digest and environment of one device of a run (what add() stores), exposed for tests.
[[nodiscard]] RecordedRun describe_run(const StoredRun& run, size_t device);

}  // namespace archbench::history
