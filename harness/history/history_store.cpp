#include "harness/history/history_store.hpp"

#include <ctime>
#include <numeric>
#include <string_view>
#include <unordered_map>
#include <fmt/format.h>

#include "harness/history/store_backend.hpp"
#include "harness/history/stored_results.hpp"
#include "harness/result/image_verdict.hpp"

namespace archbench::history {
namespace {

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

}  // namespace

struct HistoryStore::Impl {
  std::unique_ptr<StoreBackend> backend;
};

bool is_postgres_conninfo(const std::string& store) {
  return store.starts_with("postgresql://") || store.starts_with("postgres://") ||
         (store.find('=') != std::string::npos &&
          (store.find("dbname=") != std::string::npos || store.find("host=") != std::string::npos ||
           store.find("service=") != std::string::npos));
}

RecordedRun describe_run(const StoredRun& run, size_t device) {
  const DeviceResults& d = run.devices.at(device).results;
  RecordedRun r;
  r.host = run.environment.host;
  const std::string& uuid = d.device.uuid;
  r.runner = !uuid.empty() ? uuid : r.host + "/" + std::to_string(d.device.index);
  r.device_key = d.key;
  r.device_name = d.device.name;
  r.started_at = run.environment.started_at;
  nlohmann::json env{{"revision", run.build.git_revision},
                     {"arch_list", run.build.arch_list},
                     // "" when the file has none, as the digests of runs already stored were made
                     {"driver", run.environment.driver.known() ? run.environment.driver.str() : ""},
                     {"runtime", run.environment.runtime.known() ? run.environment.runtime.str() : ""}};
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
    ops.push_back({op.id, op.timing ? op.timing->median_ms : -1.0, std::string(outcome_name(op.image.status))});
  }
  r.digest = fnv1a(r.runner + "\n" + r.started_at + "\n" + env.dump() + "\n" + ops.dump());
  return r;
}

std::string store_label(const std::string& store) {
  if (!is_postgres_conninfo(store)) return store;
  std::string out = store;
  if (const auto scheme = out.find("://"); scheme != std::string::npos) {
    const auto at = out.find('@', scheme);
    const auto colon = out.find(':', scheme + 3);
    if (at != std::string::npos && colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  for (size_t at = out.find("password="); at != std::string::npos; at = out.find("password=", at + 1)) {
    const size_t value = at + 9;
    const size_t end = std::min(out.find_first_of(" &", value), out.size());
    out.replace(value, end - value, "***");
  }
  return out;
}

HistoryStore HistoryStore::open(const std::string& store, bool create) {
  auto impl = std::make_unique<Impl>();
  impl->backend = is_postgres_conninfo(store) ? open_postgres_store(store, create) : open_sqlite_store(store, create);
  return HistoryStore(std::move(impl));
}

HistoryStore::HistoryStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HistoryStore::HistoryStore(HistoryStore&&) noexcept = default;
HistoryStore& HistoryStore::operator=(HistoryStore&&) noexcept = default;
HistoryStore::~HistoryStore() = default;

size_t HistoryStore::add(const StoredRun& run) {
  const std::string added = now_utc();
  std::vector<RunWithResults> devices;
  for (size_t i = 0; i < run.devices.size(); ++i) {
    RecordedRun r = describe_run(run, i);
    if (r.started_at.empty()) r.started_at = added;
    std::vector<RecordedResult> results;
    for (const auto& op : run.devices[i].results.operators) {
      results.push_back({0, op.id, std::string(outcome_name(op.image.status)), op.failed(),
                         op.timing ? std::optional<double>(op.timing->median_ms) : std::nullopt});
    }
    devices.push_back({std::move(r), std::move(results), compress_results(run.devices[i].results)});
  }
  return impl_->backend->insert(devices);  // every device of the run, or none
}

std::vector<RecordedRun> HistoryStore::runs() const { return impl_->backend->runs(); }

std::vector<RecordedResult> HistoryStore::results(const std::string& runner) const {
  // Grouped by operator name (byte order), each group in run order: a hash of the names, then a
  // sort of the few distinct names. A stable sort of 90,000 rows by name spent most of
  // `history check` comparing long shared prefixes ("elementwise/rope/bf16/B1_...").
  std::vector<RecordedResult> in_run_order = impl_->backend->results(runner);
  std::unordered_map<std::string_view, size_t> group_of;
  std::vector<std::string_view> names;
  std::vector<size_t> group(in_run_order.size());
  for (size_t i = 0; i < in_run_order.size(); ++i) {
    const auto [it, fresh] = group_of.try_emplace(in_run_order[i].op, names.size());
    if (fresh) names.push_back(in_run_order[i].op);
    group[i] = it->second;
  }
  std::vector<size_t> order(names.size());  // group -> its place in name order
  {
    std::vector<size_t> by_name(names.size());
    std::iota(by_name.begin(), by_name.end(), size_t{0});
    std::ranges::sort(by_name, {}, [&](size_t g) { return names[g]; });
    for (size_t place = 0; place < by_name.size(); ++place) order[by_name[place]] = place;
  }
  std::vector<size_t> start(names.size() + 1, 0);  // counting sort by place, stable
  for (size_t g : group) ++start[order[g] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<RecordedResult> out(in_run_order.size());
  for (size_t i = 0; i < in_run_order.size(); ++i) out[start[order[group[i]]]++] = std::move(in_run_order[i]);
  return out;
}

std::optional<DeviceResults> HistoryStore::device_results(int64_t run) const {
  const auto kept = impl_->backend->kept_results(run);
  if (!kept) return std::nullopt;
  return decompress_results(*kept, "run " + std::to_string(run) + " of the store");
}

size_t HistoryStore::merge_from(const HistoryStore& other) {
  // Run by run through the same insert as add(), so a merge is idempotent and atomic per run.
  size_t merged = 0;
  for (const auto& r : other.runs()) {
    merged += impl_->backend->insert(
        {{r, other.impl_->backend->results_of_run(r.id), other.impl_->backend->kept_results(r.id).value_or("")}});
  }
  return merged;
}

}  // namespace archbench::history
