// The PostgreSQL store: the schema of the SQLite one in a database many runners share (libpq). The
// version sits in a table of its own (archbench_schema); creating the schema and adding a run are
// transactions, and a digest conflict (two writers adding one run) is ignored, as in SQLite.
#include <libpq-fe.h>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <type_traits>
#include <utility>

#include "harness/history/store_backend.hpp"
#include "harness/history/store_schema.hpp"

namespace archbench::history {
namespace {

// Schema 1's results are set aside with their key's name, which the new table's key takes.
constexpr SqlDialect kPostgres{"BIGSERIAL PRIMARY KEY", "BIGINT", "BOOLEAN", "DOUBLE PRECISION", "BYTEA", "",
                               " COLLATE \"C\"",
                               "ALTER TABLE results RENAME TO results_1; ALTER INDEX results_pkey RENAME TO results_1_pkey"};

// The schema version's table, made with the runs.
constexpr const char* kVersionTable = "CREATE TABLE archbench_schema(version INTEGER NOT NULL)";

// bytea in libpq's text format: "\x" and two hex digits a byte.
std::string to_hex(const std::string& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out = "\\x";
  out.reserve(2 + 2 * bytes.size());
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string from_hex(const std::string& text) {
  auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  std::string out;
  if (!text.starts_with("\\x")) return out;
  out.reserve((text.size() - 2) / 2);
  for (size_t i = 2; i + 1 < text.size(); i += 2) out += static_cast<char>(nibble(text[i]) << 4 | nibble(text[i + 1]));
  return out;
}

// Any constant: the advisory lock under which one of several first writers makes the schema.
constexpr const char* kCreateLock = "SELECT pg_advisory_xact_lock(7263517140)";

// A result that clears itself.
class Result {
 public:
  explicit Result(PGresult* r) : r_(r) {}
  ~Result() { PQclear(r_); }
  Result(Result&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&&) = delete;
  [[nodiscard]] int rows() const { return PQntuples(r_); }
  [[nodiscard]] std::string text(int row, int col) const { return PQgetvalue(r_, row, col); }
  [[nodiscard]] bool null(int row, int col) const { return PQgetisnull(r_, row, col) != 0; }
  [[nodiscard]] PGresult* get() const { return r_; }

 private:
  PGresult* r_;
};

class PostgresStore final : public StoreBackend {
 public:
  PostgresStore(const std::string& conninfo, bool create);

  size_t insert(const std::vector<RunWithResults>& runs) override {
    return transaction([&] {
      size_t added = 0;
      for (const auto& [r, results, kept] : runs) {
        const std::string env = r.environment.dump();
        const Result id = query("INSERT INTO runs(digest, runner, host, device_key, device_name, started_at, environment) "
                                "VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (digest) DO NOTHING RETURNING id",
                                {r.digest, r.runner, r.host, r.device_key, r.device_name, r.started_at, env});
        if (id.rows() == 0) continue;  // recorded before
        const std::string run = id.text(0, 0);
        for (const auto& x : results) {
          const std::string ms = x.median_ms ? fmt::format("{:.17g}", *x.median_ms) : std::string();
          query("INSERT INTO operators(name) VALUES($1) ON CONFLICT (name) DO NOTHING", {x.op});
          query("INSERT INTO results(run, operator, image, failed, median_ms) "
                "VALUES($1, (SELECT id FROM operators WHERE name = $2), $3, $4, $5)",
                {run, x.op, x.image, x.failed ? "true" : "false", ms}, /*last_null_if_empty=*/true);
        }
        if (!kept.empty()) {
          query("INSERT INTO run_results(run, body) VALUES($1, $2)", {run, to_hex(kept)});
          // The runner's newest runs keep theirs; older ones keep their medians only.
          query("DELETE FROM run_results WHERE run IN (SELECT id FROM runs WHERE runner = $1 "
                "ORDER BY started_at COLLATE \"C\" DESC, id DESC OFFSET $2)",
                {r.runner, std::to_string(kKeptResultsPerRunner)});
        }
        ++added;
      }
      return added;
    });
  }

  [[nodiscard]] std::vector<RecordedRun> runs() const override {
    const Result r = query("SELECT id, digest, runner, host, device_key, device_name, started_at, environment FROM runs "
                           "ORDER BY started_at COLLATE \"C\", id", {});
    std::vector<RecordedRun> out;
    for (int i = 0; i < r.rows(); ++i) {
      RecordedRun x{std::stoll(r.text(i, 0)), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4), r.text(i, 5),
                    r.text(i, 6), {}};
      x.environment = nlohmann::json::parse(r.text(i, 7), nullptr, false);
      if (x.environment.is_discarded()) throw HistoryError(where_ + ": run " + r.text(i, 0) + " has a corrupt environment");
      out.push_back(std::move(x));
    }
    return out;
  }

  [[nodiscard]] std::vector<RecordedResult> results(const std::string& runner) const override {
    // In run order, as the SQLite store gives them (HistoryStore groups them by operator).
    return read_results(query("SELECT r.run, o.name, r.image, r.failed, r.median_ms FROM results r "
                              "JOIN runs u ON u.id = r.run JOIN operators o ON o.id = r.operator WHERE u.runner = $1 "
                              "ORDER BY u.started_at COLLATE \"C\", u.id", {runner}));
  }

  [[nodiscard]] std::optional<std::string> kept_results(int64_t run) const override {
    const Result r = query("SELECT body FROM run_results WHERE run = $1", {std::to_string(run)});
    if (r.rows() == 0) return std::nullopt;
    return from_hex(r.text(0, 0));
  }

  [[nodiscard]] std::vector<RecordedResult> results_of_run(int64_t run) const override {
    return read_results(query("SELECT r.run, o.name, r.image, r.failed, r.median_ms FROM results r "
                              "JOIN operators o ON o.id = r.operator WHERE r.run = $1", {std::to_string(run)}));
  }

 private:
  static std::vector<RecordedResult> read_results(const Result& r) {
    std::vector<RecordedResult> out;
    for (int i = 0; i < r.rows(); ++i) {
      out.push_back({std::stoll(r.text(i, 0)), r.text(i, 1), r.text(i, 2), r.text(i, 3) == "t",
                     r.null(i, 4) ? std::nullopt : std::optional<double>(std::stod(r.text(i, 4)))});
    }
    return out;
  }
  // One statement with text parameters; an empty last parameter is NULL when asked.
  Result query(const char* sql, const std::vector<std::string>& params, bool last_null_if_empty = false) const {
    std::vector<const char*> values;
    for (const auto& p : params) values.push_back(p.c_str());
    if (last_null_if_empty && !params.empty() && params.back().empty()) values.back() = nullptr;
    Result r(PQexecParams(conn_.get(), sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr, nullptr, 0));
    const auto status = PQresultStatus(r.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      throw HistoryError(fmt::format("{}: {}", where_, PQresultErrorMessage(r.get())));
    }
    return r;
  }
  void exec(const char* sql) const {
    const Result r(PQexec(conn_.get(), sql));
    const auto status = PQresultStatus(r.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      throw HistoryError(fmt::format("{}: {}", where_, PQresultErrorMessage(r.get())));
    }
  }
  template <typename Body>
  std::invoke_result_t<Body> transaction(Body body) const {
    exec("BEGIN");
    try {
      auto result = body();
      exec("COMMIT");
      return result;
    } catch (...) {
      PQclear(PQexec(conn_.get(), "ROLLBACK"));
      throw;
    }
  }

  std::unique_ptr<PGconn, void (*)(PGconn*)> conn_{nullptr, PQfinish};  // closed however the constructor ends
  std::string where_;  // the database, as errors name it (never the password)
};

PostgresStore::PostgresStore(const std::string& conninfo, bool create) {
  conn_.reset(PQconnectdb(conninfo.c_str()));
  if (conn_ == nullptr) throw HistoryError("PostgreSQL: out of memory");
  if (PQstatus(conn_.get()) != CONNECTION_OK) {
    std::string why = PQerrorMessage(conn_.get());
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    throw HistoryError("cannot connect to the PostgreSQL store: " + why);
  }
  where_ = fmt::format("PostgreSQL database {} on {}", PQdb(conn_.get()), PQhost(conn_.get()));
  exec("SET client_min_messages = warning");
  exec("SET bytea_output = hex");  // what from_hex reads, whatever the server's or role's default
  transaction([&] {
    exec(kCreateLock);
    const Result has = query("SELECT to_regclass('archbench_schema') IS NOT NULL", {});
    if (has.text(0, 0) == "t") {
      const Result v = query("SELECT max(version) FROM archbench_schema", {});
      const int version = v.null(0, 0) ? 0 : std::stoi(v.text(0, 0));
      if (version > kStoreSchemaVersion) throw newer_schema_error(where_, version);
      if (version == 1) {  // operator names moved to their table; its runs keep medians only
        exec(upgrade_of_schema_1(kPostgres).c_str());
        exec(fmt::format("UPDATE archbench_schema SET version = {}", kStoreSchemaVersion).c_str());
      }
      return true;
    }
    const Result tables = query("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()", {});
    if (tables.text(0, 0) != "0") {
      throw HistoryError(where_ + ": holds tables but no archbench history store; it was not changed (give an empty "
                                  "database or schema)");
    }
    if (!create) throw HistoryError(where_ + ": no archbench history store there yet (`archbench history add` makes one)");
    exec(kVersionTable);
    exec(runs_table(kPostgres).c_str());
    exec(tables_of_schema_2(kPostgres).c_str());
    exec(fmt::format("INSERT INTO archbench_schema VALUES ({})", kStoreSchemaVersion).c_str());
    return true;
  });
}

}  // namespace

std::unique_ptr<StoreBackend> open_postgres_store(const std::string& conninfo, bool create) {
  return std::make_unique<PostgresStore>(conninfo, create);
}

}  // namespace archbench::history
