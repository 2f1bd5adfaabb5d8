// The hardware & driver layer's per-GPU checks (gpu_checks.cpp): a table of its own, run for every
// device CUDA sees, in index order, as the row "gpus" of the layer's table (hardware_checks.cpp).
#pragma once

#include <fmt/format.h>

#include <span>
#include <string>

#include "harness/doctor/check_table.hpp"
#include "harness/doctor/hardware_layer.hpp"

namespace archbench::doctor {

// "device 0 (NVIDIA H200)", as the hardware findings name a device.
[[nodiscard]] inline std::string device_label(const DeviceInfo& d) { return fmt::format("device {} ({})", d.index, d.name); }

// What a per-GPU check judges: one device, as CUDA and NVML see it.
struct GpuView {
  const DeviceInfo& device;
  const GpuFacts& gpu;
  bool nvml_available = false;  // NVML loaded at all (without it the "nvml" finding says why)
};

// compute-mode (not Default), gpu-state (SKIP: NVML lacks this GPU), mig (mode, a pending change),
// persistence, clock-events (slowdown, power cap), ecc (pending, uncorrectable, row remapping).
[[nodiscard]] std::span<const Check<GpuView>> gpu_checks();

// The hardware table's row "gpus": every check of gpu_checks() for device 0, then device 1, ...
void each_gpu(const HardwareFacts& f, CheckOutput& out);

}  // namespace archbench::doctor
