// The PostgreSQL store in a build without libpq (CMakeLists.txt): opening one says so.
#include "harness/history/store_backend.hpp"

namespace archbench::history {

std::unique_ptr<StoreBackend> open_postgres_store(const std::string&, bool) {
  throw HistoryError("this archbench was built without libpq, so it cannot open a PostgreSQL history store (install "
                     "libpq-dev and configure again)");
}

}  // namespace archbench::history
