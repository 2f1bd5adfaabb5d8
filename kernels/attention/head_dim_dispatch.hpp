// The attention kernels are instantiated per head dim (kHeadDims): one switch from the runtime d to
// the compile-time one, for every kernel file of the family.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

namespace archbench::kernels::attention {

// Calls f(std::integral_constant<int, d>{}) for d in kHeadDims; std::invalid_argument otherwise.
template <typename F>
void dispatch_head_dim(const char* what, int d, F&& f) {
  switch (d) {
    case 40: f(std::integral_constant<int, 40>{}); return;
    case 64: f(std::integral_constant<int, 64>{}); return;
    case 80: f(std::integral_constant<int, 80>{}); return;
    case 128: f(std::integral_constant<int, 128>{}); return;
    case 160: f(std::integral_constant<int, 160>{}); return;
    default: break;
  }
  throw std::invalid_argument(std::string(what) + ": no kernel for head dim " + std::to_string(d) +
                              " (instantiated for 40, 64, 80, 128, 160)");
}

}  // namespace archbench::kernels::attention
