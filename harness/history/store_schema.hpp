// The history store's tables, written once for both databases (store_backend.hpp): SQLite and
// PostgreSQL differ only in column types and a few options, which each store gives as its SqlDialect.
#pragma once

#include <string>

#include "harness/history/history_store.hpp"

namespace archbench::history {

struct SqlDialect {
  const char* key;              // an id the database assigns: "INTEGER PRIMARY KEY", "BIGSERIAL PRIMARY KEY"
  const char* id;               // a column holding such an id: "INTEGER", "BIGINT"
  const char* boolean;          // "INTEGER", "BOOLEAN"
  const char* real;             // "REAL", "DOUBLE PRECISION"
  const char* bytes;            // "BLOB", "BYTEA"
  const char* results_options;  // after the results table's columns: " WITHOUT ROWID" (SQLite only)
  const char* byte_order;       // sorts text byte by byte: "" (SQLite's default), " COLLATE \"C\""
  const char* set_aside_results_1;  // renames schema 1's results table (and its key) to results_1
};

// The runs, unchanged since schema 1.
[[nodiscard]] std::string runs_table(const SqlDialect& d);

// What schema 2 added to schema 1's runs: operator ids in a table of their own (a result row of
// ~30 bytes instead of 140: a fleet's year of nights fits the 1 GB aim), and each run's full device
// results (stored_results.hpp). A new store makes them after the runs; an upgrade after setting
// schema 1's results aside (as results_1).
[[nodiscard]] std::string tables_of_schema_2(const SqlDialect& d);

// The upgrade of a store of schema 1 to schema 2 (but its version): schema 1's results set aside,
// schema 2's tables made, and the results (operator names in each row) copied into them.
[[nodiscard]] std::string upgrade_of_schema_1(const SqlDialect& d);

// The refusal of a store of a newer schema than kStoreSchemaVersion, `where` naming the store.
[[nodiscard]] HistoryError newer_schema_error(const std::string& where, int version);

}  // namespace archbench::history
