// libFuzzer target for the arch-list grammar: any text either resolves to targets nvcc 13.0
// supports, with one nvcc flag per target, or raises ArchListError. Nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "harness/arch/arch_list.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace archbench::arch;
  static const Toolkit toolkit = Toolkit::from_nvcc_output(
      "Cuda compilation tools, release 13.0, V13.0.88", "sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_100 sm_110 sm_103 sm_120 sm_121");
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const ArchList list = parse_arch_list(text, toolkit, [] { return std::vector<ComputeCapability>{{9, 0}}; });
    if (list.targets.empty() || list.nvcc_flags().size() != list.targets.size()) std::abort();
    for (const auto& t : list.targets) {
      if (!toolkit.supports(t.arch, t.suffix)) std::abort();  // validation let an unsupported target through
    }
  } catch (const ArchListError&) {
    // Rejected with a reason: expected for most inputs.
  }
  return 0;
}
