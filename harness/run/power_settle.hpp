// Before an operator is timed, the GPU leaves its power cap. A power-bound kernel (a large GEMM, a
// long attention) runs at the boost clock for the first ~0.1 s of sustained load and then at the
// clock the software power cap allows, 15-20% lower on the H200; NVML clears the cap ~0.6 s after
// the load stops. Without this wait an operator's time depends on what ran before it (measured,
// docs/measurement.md "Power state"); with it every operator starts from the same state.
#pragma once

#include <string>

namespace archbench {

struct PowerSettle {
  double waited_ms = 0;  // how long the timer waited for the cap to clear
  bool capped = false;   // still capped when the wait ended: timed in whatever state the GPU was in
};

// Waits, polling NVML's clock-event reasons every 10 ms, until none of the power, thermal or hardware
// slowdown reasons is set, or max_seconds. Once two waits in a row ended capped (a GPU held at its
// cap by a low power limit, a hot room or another process), later calls check once and return: the
// run is not made slower by a wait that cannot end. Without NVML: returns at once, not capped.
[[nodiscard]] PowerSettle settle_power(const std::string& device_uuid, double max_seconds);

}  // namespace archbench
