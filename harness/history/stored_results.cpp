#include "harness/history/stored_results.hpp"

#include <zstd.h>

#include <fmt/format.h>

#include "harness/history/history_store.hpp"

namespace archbench::history {
namespace {

// A decompressed copy far beyond any run (256 MiB, the stored-file limit): a corrupt size field.
constexpr unsigned long long kMaxResultsBytes = kMaxStoredFileBytes;

}  // namespace

std::string compress_results(const DeviceResults& d) {
  const std::string json = baseline_json(d).dump();
  std::string out(ZSTD_compressBound(json.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), json.data(), json.size(), 3);
  if (ZSTD_isError(n) != 0) throw HistoryError(std::string("compressing a run's results: ") + ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

DeviceResults decompress_results(const std::string& bytes, const std::string& where) {
  const unsigned long long size = ZSTD_getFrameContentSize(bytes.data(), bytes.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > kMaxResultsBytes) {
    throw HistoryError(where + ": the stored results are not a zstd frame of a plausible size (corrupt)");
  }
  std::string json(static_cast<size_t>(size), '\0');
  const size_t n = ZSTD_decompress(json.data(), json.size(), bytes.data(), bytes.size());
  if (ZSTD_isError(n) != 0 || n != json.size()) {
    throw HistoryError(fmt::format("{}: the stored results do not decompress: {}", where,
                                   ZSTD_isError(n) != 0 ? ZSTD_getErrorName(n) : "short"));
  }
  const auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded()) throw HistoryError(where + ": the stored results are not JSON (corrupt)");
  try {
    return baseline_from_json(j, where);
  } catch (const StoredFileError& e) {
    throw HistoryError(e.what());
  }
}

}  // namespace archbench::history
