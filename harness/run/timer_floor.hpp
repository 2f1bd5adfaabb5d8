// The timer's floor: what an empty kernel measures under exactly the protocol every operator's
// single-launch samples use (L2 flush, CUDA events around one launch, synchronous sample).
//
// Every such sample carries this fixed cost on top of the operator's own work: the event/launch
// path between the start event and the kernel, and from the kernel to the stop event. It is a
// property of the machine (driver, virtualisation, firmware), not of the kernel: two hosts of one
// product measured the same small kernels 1.5-2.0 us apart on the H200, at any kernel length.
// Measured per device and run, it lets `compare` take a different machine's floor out before
// judging, instead of flagging every microsecond-scale operator.
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

namespace archbench {

// Median milliseconds of an empty one-thread kernel timed by time_launches (cold L2 as the
// operators are timed).
[[nodiscard]] double measure_timer_floor_ms(cudaStream_t stream, size_t l2_bytes);

}  // namespace archbench
