// The SQLite store in a build without SQLite (CMakeLists.txt): opening one says so.
#include "harness/history/store_backend.hpp"

namespace archbench::history {

std::unique_ptr<StoreBackend> open_sqlite_store(const std::string& path, bool) {
  throw HistoryError(path + ": this archbench was built without SQLite, so it has no SQLite history store (install "
                     "libsqlite3-dev and configure again, or give a PostgreSQL connection string)");
}

}  // namespace archbench::history
