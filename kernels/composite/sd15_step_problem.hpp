// The diffusion-step composite as a Problem: every weight, activation and workspace of the chain
// is allocated here, once, so that launch() only enqueues kernels (and a step allocates nothing;
// check() verifies that on the device, see verify_memory_stable).
#pragma once

#include <cstdint>
#include <memory>

#include "harness/ops/operator.hpp"
#include "kernels/composite/sd15_step_dims.hpp"

namespace archbench::kernels::composite {

// A problem of `bench` (Bench scale) or bench.check_dims() (Check scale), f16 or bf16. The conv
// tiles and split-K are planned for the benchmark shape (as the conv family does), so that the
// check shape runs the timed code path.
[[nodiscard]] std::unique_ptr<Problem> make_sd15_step_problem(const Sd15StepDims& bench, DType dtype,
                                                              ProblemScale scale, uint64_t seed);

// Timestep of sample b at step s: integers (exact in fp32) walking down from 961 like a sampler's
// schedule, different for the two samples of the batch so that a wrong batch index of the time
// embedding's broadcast shows.
[[nodiscard]] double sd15_step_timestep(int step, int sample);

}  // namespace archbench::kernels::composite
