#include "harness/run/timer_floor.hpp"

#include "harness/run/empty_kernel.hpp"
#include "harness/run/timer.hpp"

namespace archbench {

double measure_timer_floor_ms(cudaStream_t stream, size_t l2_bytes) {
  TimerConfig cfg;
  cfg.min_samples = 100;  // a few microseconds each: cheap, and the median must be tight
  cfg.max_seconds = 0.3;
  return time_launches(launch_empty_kernel, stream, cfg, l2_bytes).median_ms;
}

}  // namespace archbench
