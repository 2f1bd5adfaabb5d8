// The fault-injection family, registered only into the test executable archbench_faulty:
// operators that write out of bounds, trap, spin forever and run out of device memory, each
// followed by a healthy operator that must still be checked and reported correctly after it.
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/ops/registry.hpp"
#include "harness/ops/simple_problem.hpp"
#include "harness/util/cuda_raii.hpp"
#include "suites/faults/fault_kernels.hpp"

namespace archbench::faults {
namespace {

constexpr size_t kNumel = 1 << 16;

void add(Registry& r, const std::string& name, Fault f) {
  // The second input is the all-zero flag the spinning kernel polls (its range [0, 0] makes the
  // random draw 0.0f, whose bits are an int 0).
  std::vector<TensorShape> inputs{{DType::F32, kNumel}, {DType::F32, 1, 0.0, 0.0}};
  r.add(std::make_unique<SimpleOperator>(
      memory_bound_spec("fault", name, DType::F32, "N65536", "fault injection (test only)", 8.0 * kNumel), inputs,
      TensorShape{DType::F32, kNumel},
      [f](const std::vector<DeviceTensor>& in, DeviceTensor& out, cudaStream_t s) {
        launch(f, in[0].as<float>(), in[1].as<int>(), out.as<float>(), kNumel, s);
      },
      [](const std::vector<std::vector<double>>& in) {
        std::vector<double> y(in[0].size());
        for (size_t i = 0; i < y.size(); ++i) y[i] = 2.0 * in[0][i];
        return y;
      },
      std::vector<KernelRef>{{name, kernel_stub(f)}}));
}

// Correct at the check shape; its benchmark shape asks for 1 PiB of device memory, which no GPU
// has: cudaMalloc fails (not sticky), the operator's verdict names it and the run goes on.
class OutOfMemoryOperator final : public Operator {
 public:
  explicit OutOfMemoryOperator(const Registry& r) : Operator(spec_of(r)), healthy_(healthy_of(r)) {}

  [[nodiscard]] std::vector<KernelRef> kernels() const override { return healthy_.kernels(); }
  [[nodiscard]] std::unique_ptr<Problem> make_problem(ProblemScale scale, uint64_t seed) const override {
    if (scale == ProblemScale::Bench) (void)DeviceBuffer(size_t{1} << 50);  // throws CudaError
    return healthy_.make_problem(scale, seed);
  }

 private:
  static const Operator& healthy_of(const Registry& r) {
    for (const auto& op : r.all()) {
      if (op->spec().name == "b_healthy") return *op;
    }
    throw std::logic_error("fault family: b_healthy must be registered first");
  }
  static OperatorSpec spec_of(const Registry& r) {
    OperatorSpec s = healthy_of(r).spec();
    s.name = "g_out_of_memory";
    s.shape = "N65536_bench1PiB";
    return s;
  }
  const Operator& healthy_;
};

void add_fault_family(Registry& r) {
  add(r, "a_out_of_bounds", Fault::OutOfBounds);
  add(r, "b_healthy", Fault::None);
  add(r, "c_trap", Fault::Trap);
  add(r, "d_healthy", Fault::None);
  add(r, "e_spin_forever", Fault::Spin);
  add(r, "f_healthy", Fault::None);
  r.add(std::make_unique<OutOfMemoryOperator>(r));
  add(r, "h_healthy", Fault::None);
}

const TestOperators registered{&add_fault_family};

}  // namespace
}  // namespace archbench::faults
