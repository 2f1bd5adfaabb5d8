#include "harness/history/history_store.hpp"

#include <sqlite3.h>

#include <ctime>
#include <fmt/format.h>

#include "harness/result/image_verdict.hpp"

namespace archbench::history {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  runner TEXT NOT NULL,
  host TEXT NOT NULL,
  device_key TEXT NOT NULL,
  device_name TEXT NOT NULL,
  started_at TEXT NOT NULL,
  environment TEXT NOT NULL
);
CREATE TABLE results(
  run INTEGER NOT NULL REFERENCES runs(id),
  operator TEXT NOT NULL,
  image TEXT NOT NULL,
  failed INTEGER NOT NULL,
  median_ms REAL,
  PRIMARY KEY(run, operator)
);
CREATE INDEX runs_by_runner ON runs(runner, started_at, id);
)sql";

// FNV-1a, 64 bits: a digest that is the same in every build (std::hash is not).
std::string fnv1a(const std::string& s) {
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return fmt::format("{:016x}", h);
}

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  char buf[32] = {};
  if (::gmtime_r(&t, &utc) != nullptr) std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

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

}  // namespace

struct HistoryStore::Impl {
  std::string path;
  sqlite3* db = nullptr;
  ~Impl() { sqlite3_close(db); }
  void exec(const char* sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      const std::string what = err != nullptr ? err : sqlite3_errmsg(db);
      sqlite3_free(err);
      throw HistoryError(path + ": " + what);
    }
  }
  // Runs `body` in one write transaction (BEGIN IMMEDIATE: writers queue on the busy timeout).
  template <typename Body>
  auto transaction(Body body) {
    exec("BEGIN IMMEDIATE");
    try {
      auto result = body();
      exec("COMMIT");
      return result;
    } catch (...) {
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
  // The one way a run enters the store (add and merge): false when its digest is there already.
  bool insert(const RecordedRun& r, const std::vector<RecordedResult>& results) {
    Statement run(db, "INSERT OR IGNORE INTO runs(digest, runner, host, device_key, device_name, started_at, environment) "
                      "VALUES(?, ?, ?, ?, ?, ?, ?)", path);
    run.bind(1, r.digest).bind(2, r.runner).bind(3, r.host).bind(4, r.device_key).bind(5, r.device_name)
        .bind(6, r.started_at).bind(7, r.environment.dump());
    run.step();
    if (sqlite3_changes(db) == 0) return false;  // recorded before
    const int64_t id = sqlite3_last_insert_rowid(db);
    Statement row(db, "INSERT INTO results(run, operator, image, failed, median_ms) VALUES(?, ?, ?, ?, ?)", path);
    for (const auto& x : results) {
      row.bind(1, id).bind(2, x.op).bind(3, x.image).bind(4, int64_t{x.failed ? 1 : 0}).bind(5, x.median_ms);
      row.step();
      row.reset();
    }
    return true;
  }
  int user_version() const {
    Statement s(db, "PRAGMA user_version", path);
    const int v = s.step() ? static_cast<int>(s.integer(0)) : 0;
    while (s.step()) {
    }
    return v;
  }
};

RecordedRun describe_run(const StoredRun& run, size_t device) {
  const DeviceResults& d = run.devices.at(device).results;
  RecordedRun r;
  r.host = run.environment.value("host", "");
  const std::string uuid = d.device.value("uuid", "");
  r.runner = !uuid.empty() ? uuid : r.host + "/" + std::to_string(d.device.value("index", 0));
  r.device_key = d.key;
  r.device_name = d.device.value("name", "");
  r.started_at = run.environment.value("started_at", "");
  nlohmann::json env{{"revision", run.build.value("git_revision", "")},
                     {"arch_list", run.build.value("arch_list", "")},
                     {"driver", run.environment.value("driver_cuda_version", "")},
                     {"runtime", run.environment.value("runtime_cuda_version", "")}};
  for (const auto& op : d.operators) {
    // The libraries as loaded: a library operator's image label names its version ("cuBLAS 13.1.0").
    for (const char* lib : {"cuBLAS", "cuDNN"}) {
      if (op.image.label.starts_with(std::string(lib) + " ") && !env.contains(lib)) {
        env[lib] = op.image.label.substr(std::string(lib).size() + 1);
      }
    }
  }
  r.environment = env;
  // The same device results of the same run, whenever and wherever added, give the same digest.
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : d.operators) {
    ops.push_back({op.id, op.timing ? op.timing->median_ms : -1.0, std::string(image_verdict_name(op.image.status))});
  }
  r.digest = fnv1a(r.runner + "\n" + r.started_at + "\n" + env.dump() + "\n" + ops.dump());
  return r;
}

HistoryStore HistoryStore::open(const std::string& path, bool create) {
  auto impl = std::make_unique<Impl>();
  impl->path = path;
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
  if (sqlite3_open_v2(path.c_str(), &impl->db, flags, nullptr) != SQLITE_OK) {
    throw HistoryError(fmt::format("{}: cannot open{}: {}", path, create ? "" : " (is it there?)",
                                   impl->db != nullptr ? sqlite3_errmsg(impl->db) : "out of memory"));
  }
  sqlite3_busy_timeout(impl->db, 30000);  // concurrent writers wait for each other
  // Reading the schema version is the first read of the file: a file that is not SQLite fails here.
  auto version_of = [&] {
    try {
      return impl->user_version();
    } catch (const HistoryError& e) {
      if (sqlite3_errcode(impl->db) == SQLITE_NOTADB) {
        throw HistoryError(path + ": not an SQLite file, so not an archbench history store; it was not changed");
      }
      throw;
    }
  };
  int version = version_of();
  if (version > kStoreSchemaVersion) {
    throw HistoryError(fmt::format("{}: a store of schema {} (this archbench reads {}): use a newer archbench; the "
                                   "store was not changed", path, version, kStoreSchemaVersion));
  }
  if (version == 0) {
    // New, or an empty or foreign database. Creators take the write lock first, so that of several
    // processes making one store at once exactly one makes the schema and the others see it.
    impl->transaction([&] {
      if (version_of() != 0) return false;  // another process made it meanwhile
      Statement tables(impl->db, "SELECT count(*) FROM sqlite_master", path);
      const bool empty = tables.step() && tables.integer(0) == 0;
      tables.reset();
      if (!empty) {
        throw HistoryError(path + ": an SQLite database that is not an archbench history store; it was not changed");
      }
      impl->exec(kSchema);
      impl->exec(fmt::format("PRAGMA user_version = {}", kStoreSchemaVersion).c_str());
      return true;
    });
  }
  // Write-ahead logging lets readers read while a writer adds; the mode is kept in the file, so
  // whoever sets it first sets it for all (a writer holding the file at that moment: try again).
  for (int attempt = 0; attempt < 100; ++attempt) {
    Statement wal(impl->db, "PRAGMA journal_mode=WAL", path);
    try {
      if (wal.step() && wal.text(0) == "wal") break;
    } catch (const HistoryError&) {
      if (sqlite3_errcode(impl->db) != SQLITE_BUSY && sqlite3_errcode(impl->db) != SQLITE_LOCKED) throw;
    }
    sqlite3_sleep(20);
  }
  impl->exec("PRAGMA foreign_keys = ON");
  return HistoryStore(std::move(impl));
}

HistoryStore::HistoryStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HistoryStore::HistoryStore(HistoryStore&&) noexcept = default;
HistoryStore& HistoryStore::operator=(HistoryStore&&) noexcept = default;
HistoryStore::~HistoryStore() = default;

size_t HistoryStore::add(const StoredRun& run) {
  const std::string added = now_utc();
  return impl_->transaction([&] {
    size_t added_runs = 0;
    for (size_t i = 0; i < run.devices.size(); ++i) {
      RecordedRun r = describe_run(run, i);
      if (r.started_at.empty()) r.started_at = added;
      std::vector<RecordedResult> results;
      for (const auto& op : run.devices[i].results.operators) {
        results.push_back({0, op.id, std::string(image_verdict_name(op.image.status)), op.failed(),
                           op.timing ? std::optional<double>(op.timing->median_ms) : std::nullopt});
      }
      added_runs += impl_->insert(r, results) ? 1 : 0;
    }
    return added_runs;
  });
}

std::vector<RecordedRun> HistoryStore::runs() const {
  Statement s(impl_->db, "SELECT id, digest, runner, host, device_key, device_name, started_at, environment FROM runs "
                         "ORDER BY started_at, id", impl_->path);
  std::vector<RecordedRun> out;
  while (s.step()) {
    RecordedRun r{s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5), s.text(6), {}};
    r.environment = nlohmann::json::parse(s.text(7), nullptr, false);
    if (r.environment.is_discarded()) throw HistoryError(impl_->path + ": run " + std::to_string(r.id) + " has a corrupt environment");
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<RecordedResult> HistoryStore::results(const std::string& runner) const {
  Statement s(impl_->db, "SELECT r.run, r.operator, r.image, r.failed, r.median_ms FROM results r JOIN runs u ON u.id = r.run "
                         "WHERE u.runner = ? ORDER BY r.operator, u.started_at, u.id", impl_->path);
  s.bind(1, runner);
  std::vector<RecordedResult> out;
  while (s.step()) out.push_back({s.integer(0), s.text(1), s.text(2), s.integer(3) != 0, s.real(4)});
  return out;
}

size_t HistoryStore::merge_from(const HistoryStore& other) {
  // Run by run through the same insert as add(), so a merge is idempotent and atomic per run.
  size_t merged = 0;
  for (const auto& r : other.runs()) {
    std::vector<RecordedResult> results;
    {
      Statement rows(other.impl_->db, "SELECT operator, image, failed, median_ms FROM results WHERE run = ?",
                     other.impl_->path);
      rows.bind(1, r.id);
      while (rows.step()) results.push_back({r.id, rows.text(0), rows.text(1), rows.integer(2) != 0, rows.real(3)});
    }
    merged += impl_->transaction([&] { return impl_->insert(r, results); }) ? 1 : 0;
  }
  return merged;
}

}  // namespace archbench::history
