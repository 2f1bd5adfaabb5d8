#include "harness/history/store_schema.hpp"

#include <fmt/format.h>

namespace archbench::history {

std::string runs_table(const SqlDialect& d) {
  return fmt::format(R"sql(
CREATE TABLE runs(
  id {key},
  digest TEXT NOT NULL UNIQUE,
  runner TEXT NOT NULL,
  host TEXT NOT NULL,
  device_key TEXT NOT NULL,
  device_name TEXT NOT NULL,
  started_at TEXT NOT NULL,
  environment TEXT NOT NULL
);
CREATE INDEX runs_by_runner ON runs(runner, started_at, id);
)sql", fmt::arg("key", d.key));
}

std::string tables_of_schema_2(const SqlDialect& d) {
  return fmt::format(R"sql(
CREATE TABLE operators(
  id {key},
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE results(
  run {id} NOT NULL REFERENCES runs(id),
  operator {id} NOT NULL REFERENCES operators(id),
  image TEXT NOT NULL,
  failed {boolean} NOT NULL,
  median_ms {real},
  PRIMARY KEY(run, operator)
){results_options};
CREATE TABLE run_results(
  run {id} PRIMARY KEY REFERENCES runs(id),
  body {bytes} NOT NULL
);
)sql", fmt::arg("key", d.key), fmt::arg("id", d.id), fmt::arg("boolean", d.boolean), fmt::arg("real", d.real),
                     fmt::arg("results_options", d.results_options), fmt::arg("bytes", d.bytes));
}

std::string upgrade_of_schema_1(const SqlDialect& d) {
  // Ids in the byte order of the names, alike in both databases.
  return std::string(d.set_aside_results_1) + ";\n" + tables_of_schema_2(d) + fmt::format(R"sql(
INSERT INTO operators(name) SELECT operator FROM results_1 GROUP BY operator ORDER BY operator{byte_order};
INSERT INTO results SELECT r.run, o.id, r.image, r.failed, r.median_ms FROM results_1 r JOIN operators o ON o.name = r.operator;
DROP TABLE results_1;
)sql", fmt::arg("byte_order", d.byte_order));
}

HistoryError newer_schema_error(const std::string& where, int version) {
  return HistoryError(fmt::format("{}: a store of schema {} (this archbench reads {}): use a newer archbench; the store "
                                  "was not changed", where, version, kStoreSchemaVersion));
}

}  // namespace archbench::history
