// Where a history store keeps its runs: an SQLite file (the embedded default) or a PostgreSQL
// database (a fleet's shared store), behind one interface, so that adding, merging and reading
// have one implementation (history_store.cpp) and each database only its SQL and its locking.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/history/history_store.hpp"

namespace archbench::history {

struct RunWithResults {
  RecordedRun run;
  std::vector<RecordedResult> results;
  std::string kept;  // the device's full results, compressed (stored_results.hpp); empty: none kept
};

class StoreBackend {
 public:
  virtual ~StoreBackend() = default;
  // In one transaction, every run whose digest the store lacks; returns how many were new. The kept
  // results of a runner's runs older than its newest kKeptResultsPerRunner are dropped (medians stay).
  virtual size_t insert(const std::vector<RunWithResults>& runs) = 0;
  [[nodiscard]] virtual std::vector<RecordedRun> runs() const = 0;  // started_at, then id
  [[nodiscard]] virtual std::vector<RecordedResult> results(const std::string& runner) const = 0;  // in run order
  [[nodiscard]] virtual std::vector<RecordedResult> results_of_run(int64_t run) const = 0;
  [[nodiscard]] virtual std::optional<std::string> kept_results(int64_t run) const = 0;  // compressed
};

// Each makes the schema when the store is new and `create` is set, and refuses (HistoryError,
// nothing written) a database that is not an archbench store or is of a newer schema. A build
// without the database's client library throws saying so.
[[nodiscard]] std::unique_ptr<StoreBackend> open_sqlite_store(const std::string& path, bool create);
[[nodiscard]] std::unique_ptr<StoreBackend> open_postgres_store(const std::string& conninfo, bool create);

// "postgresql://..." / "postgres://..." URIs and libpq's "key=value" strings ("host=/tmp dbname=x")
// name a PostgreSQL store; anything else is an SQLite file's path.
[[nodiscard]] bool is_postgres_conninfo(const std::string& store);

}  // namespace archbench::history
