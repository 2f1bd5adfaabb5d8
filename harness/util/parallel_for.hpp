// Splits [0, n) into fixed chunks and runs them on all host cores: the host's share of a run
// (check-scale inputs drawn, rounded and converted one by one; float64 references). Chunk
// boundaries depend only on n and `chunk`, so results do not depend on the core count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace archbench {

// Calls body(chunk_index, begin, end) once per chunk of `chunk` elements (the last may be short).
template <typename Body>
void parallel_chunks(size_t n, size_t chunk, Body body) {
  const size_t chunks = chunk == 0 ? 0 : (n + chunk - 1) / chunk;
  const size_t workers = std::min<size_t>(chunks, std::max(1u, std::thread::hardware_concurrency()));
  if (workers <= 1) {
    for (size_t c = 0; c < chunks; ++c) body(c, c * chunk, std::min(n, (c + 1) * chunk));
    return;
  }
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (size_t c = next++; c < chunks; c = next++) {
      try {
        body(c, c * chunk, std::min(n, (c + 1) * chunk));
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

// Calls body(row) for every row in [0, rows), rows split over all host cores: for float64
// references whose rows are independent (norms, GEGLU, RoPE), so the result does not depend on the
// core count.
template <typename Body>
void parallel_rows(size_t rows, Body body) {
  // Few rows are heavy ones (a GEMM check's 272 rows, each a K x N product): one per chunk, so that
  // no core is left with the last chunk alone. Many rows go 16 to a chunk.
  const size_t rows_per_chunk = std::clamp<size_t>(rows / 512, 1, 16);
  parallel_chunks(rows, rows_per_chunk, [&](size_t, size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) body(r);
  });
}

// y[i] = f(x[i]) on all host cores: a float64 reference element by element.
template <typename F>
std::vector<double> parallel_map(const std::vector<double>& x, F f) {
  std::vector<double> y(x.size());
  parallel_chunks(x.size(), size_t{1} << 16, [&](size_t, size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) y[i] = f(x[i]);
  });
  return y;
}

}  // namespace archbench
