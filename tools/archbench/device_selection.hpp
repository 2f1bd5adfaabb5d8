// `run --device`: which visible CUDA devices to run on, as nvbench's -d and nvidia-smi's -i take
// them: an index, a comma-separated list ("0,1") or "all". Indices are CUDA's numbering: the
// devices left by CUDA_VISIBLE_DEVICES, ordered fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID
// (nvidia-smi numbers by PCI bus).
#pragma once

#include <string_view>
#include <vector>

namespace archbench::cli {

// Indices in the order given; throws UsageError (selection.hpp) for anything else, naming the
// visible device count. visible < 0: the syntax only (before CUDA starts; "all" is then empty).
[[nodiscard]] std::vector<int> parse_device_selection(std::string_view spec, int visible);

}  // namespace archbench::cli
