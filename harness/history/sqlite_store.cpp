// The SQLite store: one file, WAL, the schema version in PRAGMA user_version (docs/history.md).
#include <sqlite3.h>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <type_traits>

#include "harness/history/store_backend.hpp"
#include "harness/history/store_schema.hpp"

namespace archbench::history {
namespace {

// SQLite's types; WITHOUT ROWID keeps each result row in its key's b-tree, with no rowid of its own.
constexpr SqlDialect kSqlite{"INTEGER PRIMARY KEY", "INTEGER", "INTEGER", "REAL", "BLOB", " WITHOUT ROWID", "",
                             "ALTER TABLE results RENAME TO results_1"};

class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(s_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& bind(int i, const std::string& v) {
    check(sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, int64_t v) {
    check(sqlite3_bind_int64(s_, i, v));
    return *this;
  }
  Statement& bind_blob(int i, const std::string& bytes) {
    check(sqlite3_bind_blob(s_, i, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT));
    return *this;
  }
  Statement& bind(int i, std::optional<double> v) {
    check(v ? sqlite3_bind_double(s_, i, *v) : sqlite3_bind_null(s_, i));
    return *this;
  }
  bool step() {  // true: a row is there
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }
  void reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  [[nodiscard]] std::string text(int i) const {
    const auto* t = sqlite3_column_text(s_, i);
    return t != nullptr ? reinterpret_cast<const char*>(t) : "";
  }
  [[nodiscard]] int64_t integer(int i) const { return sqlite3_column_int64(s_, i); }
  [[nodiscard]] std::string blob(int i) const {
    const auto* p = static_cast<const char*>(sqlite3_column_blob(s_, i));
    return p != nullptr ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(s_, i))) : std::string();
  }
  [[nodiscard]] std::optional<double> real(int i) const {
    if (sqlite3_column_type(s_, i) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(s_, i);
  }

 private:
  void check(int rc) {
    if (rc != SQLITE_OK) fail("bind");
  }
  [[noreturn]] void fail(const char* what) const {
    throw HistoryError(fmt::format("{}: {}: {}", path_, what, sqlite3_errmsg(db_)));
  }
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
  const std::string& path_;
};

class SqliteStore final : public StoreBackend {
 public:
  SqliteStore(const std::string& path, bool create);

  size_t insert(const std::vector<RunWithResults>& runs) override {
    return transaction([&] {
      size_t added = 0;
      for (const auto& run : runs) added += insert_one(run) ? 1 : 0;
      return added;
    });
  }

  [[nodiscard]] std::vector<RecordedRun> runs() const override {
    Statement s(db_.get(), "SELECT id, digest, runner, host, device_key, device_name, started_at, environment FROM runs "
                     "ORDER BY started_at, id", path_);
    std::vector<RecordedRun> out;
    while (s.step()) {
      RecordedRun r{s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6), {}};
      r.environment = nlohmann::json::parse(s.text(7), nullptr, false);
      if (r.environment.is_discarded()) throw HistoryError(path_ + ": run " + std::to_string(r.id) + " has a corrupt environment");
      out.push_back(std::move(r));
    }
    return out;
  }

  [[nodiscard]] std::vector<RecordedResult> results(const std::string& runner) const override {
    // In run order, as the runner index gives them (HistoryStore groups them by operator: 5x faster
    // than SQLite sorting 90,000 rows of a year's nights by name).
    Statement s(db_.get(), "SELECT r.run, o.name, r.image, r.failed, r.median_ms FROM runs u JOIN results r ON r.run = u.id "
                     "JOIN operators o ON o.id = r.operator WHERE u.runner = ? ORDER BY u.started_at, u.id", path_);
    s.bind(1, runner);
    std::vector<RecordedResult> out;
    while (s.step()) out.push_back({s.integer(0), s.text(1), s.text(2), s.integer(3) != 0, s.real(4)});
    return out;
  }

  [[nodiscard]] std::optional<std::string> kept_results(int64_t run) const override {
    Statement s(db_.get(), "SELECT body FROM run_results WHERE run = ?", path_);
    s.bind(1, run);
    if (!s.step()) return std::nullopt;
    return s.blob(0);
  }

  [[nodiscard]] std::vector<RecordedResult> results_of_run(int64_t run) const override {
    Statement s(db_.get(), "SELECT o.name, r.image, r.failed, r.median_ms FROM results r JOIN operators o ON o.id = r.operator "
                     "WHERE r.run = ?", path_);
    s.bind(1, run);
    std::vector<RecordedResult> out;
    while (s.step()) out.push_back({run, s.text(0), s.text(1), s.integer(2) != 0, s.real(3)});
    return out;
  }

 private:
  void exec(const char* sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_.get(), sql, nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string what = err != nullptr ? err : sqlite3_errmsg(db_.get());
      sqlite3_free(err);
      throw HistoryError(path_ + ": " + what);
    }
  }
  // Runs `body` in one write transaction (BEGIN IMMEDIATE: writers queue on the busy timeout).
  template <typename Body>
  std::invoke_result_t<Body> transaction(Body body) {
    exec("BEGIN IMMEDIATE");
    try {
      auto result = body();
      exec("COMMIT");
      return result;
    } catch (...) {
      sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
  // False when the run's digest is there already.
  bool insert_one(const RunWithResults& in) {
    const RecordedRun& r = in.run;
    Statement run(db_.get(), "INSERT OR IGNORE INTO runs(digest, runner, host, device_key, device_name, started_at, environment) "
                       "VALUES(?, ?, ?, ?, ?, ?, ?)", path_);
    run.bind(1, r.digest).bind(2, r.runner).bind(3, r.host).bind(4, r.device_key).bind(5, r.device_name)
        .bind(6, r.started_at).bind(7, r.environment.dump());
    run.step();
    if (sqlite3_changes(db_.get()) == 0) return false;  // recorded before
    const int64_t id = sqlite3_last_insert_rowid(db_.get());
    Statement name(db_.get(), "INSERT OR IGNORE INTO operators(name) VALUES(?)", path_);
    Statement row(db_.get(), "INSERT INTO results(run, operator, image, failed, median_ms) "
                       "VALUES(?, (SELECT id FROM operators WHERE name = ?), ?, ?, ?)", path_);
    for (const auto& x : in.results) {
      name.bind(1, x.op);
      name.step();
      name.reset();
      row.bind(1, id).bind(2, x.op).bind(3, x.image).bind(4, int64_t{x.failed ? 1 : 0}).bind(5, x.median_ms);
      row.step();
      row.reset();
    }
    if (!in.kept.empty()) {
      Statement kept(db_.get(), "INSERT INTO run_results(run, body) VALUES(?, ?)", path_);
      kept.bind(1, id).bind_blob(2, in.kept);
      kept.step();
      // The runner's newest runs keep theirs; older ones keep their medians only.
      Statement prune(db_.get(), "DELETE FROM run_results WHERE run IN (SELECT id FROM runs WHERE runner = ? "
                           "ORDER BY started_at DESC, id DESC LIMIT -1 OFFSET ?)", path_);
      prune.bind(1, r.runner).bind(2, static_cast<int64_t>(kKeptResultsPerRunner));
      prune.step();
    }
    return true;
  }
  int user_version() const {
    Statement s(db_.get(), "PRAGMA user_version", path_);
    const int v = s.step() ? static_cast<int>(s.integer(0)) : 0;
    while (s.step()) {
    }
    return v;
  }

  std::string path_;
  std::unique_ptr<sqlite3, int (*)(sqlite3*)> db_{nullptr, sqlite3_close};  // closed however the constructor ends
};

SqliteStore::SqliteStore(const std::string& path, bool create) : path_(path) {
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
  sqlite3* db = nullptr;
  const int opened = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  db_.reset(db);
  if (opened != SQLITE_OK) {
    const std::string why = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    throw HistoryError(fmt::format("{}: cannot open{}: {}", path, create ? "" : " (is it there?)", why));
  }
  sqlite3_busy_timeout(db_.get(), 30000);  // concurrent writers wait for each other
  // Reading the schema version is the first read of the file: a file that is not SQLite fails here.
  auto version_of = [&] {
    try {
      return user_version();
    } catch (const HistoryError& e) {
      if (sqlite3_errcode(db_.get()) == SQLITE_NOTADB) {
        throw HistoryError(path + ": not an SQLite file, so not an archbench history store; it was not changed");
      }
      throw;
    }
  };
  const int version = version_of();
  if (version > kStoreSchemaVersion) throw newer_schema_error(path, version);
  if (version == 0) {
    // New, or an empty or foreign database. Creators take the write lock first, so that of several
    // processes making one store at once exactly one makes the schema and the others see it.
    transaction([&] {
      if (version_of() != 0) return false;  // another process made it meanwhile
      Statement tables(db_.get(), "SELECT count(*) FROM sqlite_master", path_);
      const bool empty = tables.step() && tables.integer(0) == 0;
      tables.reset();
      if (!empty) {
        throw HistoryError(path + ": an SQLite database that is not an archbench history store; it was not changed");
      }
      exec(runs_table(kSqlite).c_str());
      exec(tables_of_schema_2(kSqlite).c_str());
      exec(fmt::format("PRAGMA user_version = {}", kStoreSchemaVersion).c_str());
      return true;
    });
  } else if (version == 1) {
    // Schema 1: operator names moved to their table; its runs keep medians only (no full results).
    try {
      transaction([&] {
        if (version_of() != 1) return false;  // another process upgraded it meanwhile
        exec(upgrade_of_schema_1(kSqlite).c_str());
        exec(fmt::format("PRAGMA user_version = {}", kStoreSchemaVersion).c_str());
        return true;
      });
    } catch (const HistoryError& e) {
      throw HistoryError(fmt::format("{}: a store of schema 1, which this archbench upgrades to {} when it opens it, "
                                     "and the upgrade failed (is the file writable?): {}; the store was not changed",
                                     path, kStoreSchemaVersion, e.what()));
    }
  }
  // Write-ahead logging lets readers read while a writer adds; the mode is kept in the file, so
  // whoever sets it first sets it for all (a writer holding the file at that moment: try again).
  for (int attempt = 0; attempt < 100; ++attempt) {
    Statement wal(db_.get(), "PRAGMA journal_mode=WAL", path_);
    try {
      if (wal.step() && wal.text(0) == "wal") break;
    } catch (const HistoryError&) {
      if (sqlite3_errcode(db_.get()) != SQLITE_BUSY && sqlite3_errcode(db_.get()) != SQLITE_LOCKED) throw;
    }
    sqlite3_sleep(20);
  }
  exec("PRAGMA foreign_keys = ON");
}

}  // namespace

std::unique_ptr<StoreBackend> open_sqlite_store(const std::string& path, bool create) {
  return std::make_unique<SqliteStore>(path, create);
}

}  // namespace archbench::history
