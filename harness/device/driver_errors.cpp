#include "harness/device/driver_errors.hpp"

#include <cuda_runtime.h>

#include <string>

namespace archbench {

DriverErrorExplanation explain_driver_error(int code, arch::CudaVersion driver, arch::CudaVersion runtime) {
  using enum doctor::FieldCause;
  switch (code) {
    case cudaErrorInsufficientDriver:
      if (!driver.known()) {
        return {"no NVIDIA driver library (libcuda.so.1) could be loaded by this process, so the CUDA runtime has "
                "nothing to talk to (cudart reports this as 'driver insufficient')",
                "install the NVIDIA driver, or run where a GPU is visible (in a container: docker run --gpus all)",
                {NoDriverInContainer, DriverOlderThanRuntime}};
      }
      return {"the driver supports CUDA " + driver.str() + " but this runtime is CUDA " + runtime.str(),
              "install driver r" + std::to_string(arch::minimum_driver_branch_for_runtime(runtime.major())) +
                  " or newer; on datacenter GPUs the cuda-compat forward-compatibility package is the alternative",
              {DriverOlderThanRuntime}};
    case cudaErrorStubLibrary:
      return {"the toolkit's stub libcuda (for linking only) was loaded instead of the driver's libcuda.so.1",
              "remove the .../stubs directory from LD_LIBRARY_PATH", {MixedCudaLibraries}};
    case cudaErrorNoDevice:
      return {"the driver is loaded but sees no usable GPU: CUDA_VISIBLE_DEVICES hides them, the container was given "
              "none, or the GPU is not bound to the nvidia driver",
              "check CUDA_VISIBLE_DEVICES, nvidia-smi -L, and that the container was started with --gpus",
              {NoDriverInContainer, VisibleDevicesMistake, MigInstance}};
    case cudaErrorSystemDriverMismatch:
      return {"the kernel module and the user-space driver are different versions (an upgrade without a reboot)",
              "reboot, or reload the nvidia kernel modules; hold the driver packages against unattended upgrades",
              {KernelModuleMismatch}};
    case cudaErrorCompatNotSupportedOnDevice:
      return {"a CUDA forward-compatibility libcuda (cuda-compat) is loaded on a GPU that does not support it",
              "remove the cuda-compat directory from LD_LIBRARY_PATH, or upgrade the driver itself",
              {DriverOlderThanRuntime}};
    case cudaErrorDevicesUnavailable:
      return {"every GPU is busy or unavailable: exclusive-process compute mode with another process on it",
              "wait for the other process, or set the compute mode to DEFAULT (nvidia-smi -c DEFAULT)", {}};
    case cudaErrorUnknown:
      return {"often a GPU or driver in a bad state (after an Xid error or a suspend/resume), or nvidia-uvm not loaded",
              "check dmesg for Xid / NVRM messages and nvidia-smi; load nvidia-uvm (nvidia-modprobe -u -c=0); reset the "
              "GPU or reboot",
              {}};
    default:
      return {"the CUDA driver could not be initialised", "check nvidia-smi and dmesg for NVRM messages", {}};
  }
}

}  // namespace archbench
