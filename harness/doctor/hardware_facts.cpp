// The hardware & driver layer's facts, gathered from the system (hardware_layer.hpp).
#include "harness/doctor/hardware_layer.hpp"

#include "harness/device/driver_errors.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/doctor/text.hpp"
#include "harness/util/cuda_check.hpp"

namespace archbench::doctor {
namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::optional<std::string> kernel_module_version(std::string_view proc_text) {
  for (const auto& line : split(proc_text, '\n')) {
    if (line.find("NVRM version:") == std::string::npos) continue;
    for (const auto& word : split(line, ' ')) {
      const std::string w = trim(word);
      if (w.size() >= 3 && std::isdigit(static_cast<unsigned char>(w.front())) != 0 &&
          w.find('.') != std::string::npos &&
          std::ranges::all_of(w, [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.'; })) {
        return w;
      }
    }
  }
  return std::nullopt;
}

HardwareFacts gather_hardware_facts(const Environment& env, const RuntimeFacts& runtime) {
  HardwareFacts f;
  f.env = env;
  f.env_vars = runtime.env;
  Nvml& nvml = Nvml::instance();
  f.nvml_available = nvml.available();
  f.nvml_init_status = nvml.init_status();
  f.nvml_why = nvml.why_unavailable();
  f.nvml = nvml.system();
  for (const auto& d : env.devices) {
    GpuFacts g;
    std::array<char, 32> bus{};
    if (cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), d.index) == cudaSuccess)
      g.pci_bus_id = bus.data();
    else
      cudaGetLastError();
    int mode = -1;
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d.index) == cudaSuccess)
      g.compute_mode = mode;
    else
      cudaGetLastError();
    g.nvml = nvml.state(d.uuid);
    // CUDA's UUID of a MIG instance carries the same bytes NVML names with MIG-.
    if (!g.nvml && d.uuid.starts_with("GPU-")) g.nvml = nvml.state("MIG-" + d.uuid.substr(4));
    f.gpus.push_back(std::move(g));
  }
  std::error_code ec;
  std::vector<std::string> nodes;
  for (fs::directory_iterator it("/dev", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.starts_with("nvidia")) nodes.push_back(it->path().string());
  }
  std::ranges::sort(nodes);
  for (const auto& n : nodes) {
    f.device_nodes.push_back(n);
    std::error_code dir_ec;
    // CUDA opens the per-GPU nodes, nvidiactl and nvidia-uvm; -uvm-tools and -modeset serve profilers and displays.
    const std::string name = fs::path(n).filename().string();
    const bool needed = name == "nvidiactl" || name == "nvidia-uvm" ||
                        (name.size() > 6 && std::ranges::all_of(name.substr(6), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; }));
    if (needed && !fs::is_directory(n, dir_ec) && access(n.c_str(), R_OK | W_OK) != 0) f.inaccessible_nodes.push_back(n);
  }
  if (fs::exists("/proc/driver/nvidia/version", ec)) f.kernel_module = read_text("/proc/driver/nvidia/version");
  for (const auto& c : runtime.mapped) {
    if (c.family == "libcuda" && f.libcuda_path.empty()) {
      f.libcuda_path = c.real_path;
      f.libcuda_version = c.version;
    }
  }
  for (const auto& c : runtime.reachable) {
    if (c.family == "libcuda") f.libcuda_elsewhere.push_back(c.real_path + (c.stub() ? " (stub)" : ""));
  }
  if (fs::exists("/.dockerenv", ec)) {
    f.in_container = true;
    f.container_evidence = "/.dockerenv exists";
  } else if (fs::exists("/run/.containerenv", ec)) {
    f.in_container = true;
    f.container_evidence = "/run/.containerenv exists";
  } else if (f.env_vars.contains("KUBERNETES_SERVICE_HOST")) {
    f.in_container = true;
    f.container_evidence = "KUBERNETES_SERVICE_HOST is set";
  } else {
    const std::string cgroup = read_text("/proc/1/cgroup");
    for (const char* word : {"docker", "kubepods", "containerd", "libpod", "lxc"}) {
      if (cgroup.find(word) != std::string::npos) {
        f.in_container = true;
        f.container_evidence = std::string("/proc/1/cgroup mentions ") + word;
        break;
      }
    }
  }
  return f;
}

}  // namespace archbench::doctor
