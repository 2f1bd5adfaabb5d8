// The store in a build without SQLite (CMakeLists.txt): every open says so; nothing else is reachable.
#include "harness/history/history_store.hpp"

namespace archbench::history {

struct HistoryStore::Impl {};

HistoryStore HistoryStore::open(const std::string& path, bool) {
  throw HistoryError(path + ": this archbench was built without SQLite, so it has no history store (install "
                     "libsqlite3-dev and configure again)");
}
HistoryStore::HistoryStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HistoryStore::HistoryStore(HistoryStore&&) noexcept = default;
HistoryStore& HistoryStore::operator=(HistoryStore&&) noexcept = default;
HistoryStore::~HistoryStore() = default;
size_t HistoryStore::add(const StoredRun&) { return 0; }
size_t HistoryStore::merge_from(const HistoryStore&) { return 0; }
std::vector<RecordedRun> HistoryStore::runs() const { return {}; }
std::vector<RecordedResult> HistoryStore::results(const std::string&) const { return {}; }
RecordedRun describe_run(const StoredRun&, size_t) { return {}; }

}  // namespace archbench::history
