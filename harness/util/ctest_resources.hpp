// ctest resource allocation for GPU tests (CMake >= 3.16): tests declare RESOURCE_GROUPS
// "gpus:1"; `ctest --resource-spec-file F -j N` then runs up to N of them at once, each with its
// own GPU named in CTEST_RESOURCE_GROUP_0_GPUS ("id:1,slots:1"). The spec file lists the GPUs
// (`archbench resources --json F` writes it from the visible devices). Header-only: the GPU suite
// uses the parsing side without linking the CLI.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace archbench {

// {"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": S}, ...]}]}
// with ids 0..count-1, the CUDA device indices as this process sees them.
inline nlohmann::json ctest_resource_spec(size_t gpu_count, int slots_per_gpu) {
  nlohmann::json gpus = nlohmann::json::array();
  for (size_t i = 0; i < gpu_count; ++i) gpus.push_back({{"id", std::to_string(i)}, {"slots", slots_per_gpu}});
  return {{"version", {{"major", 1}, {"minor", 0}}}, {"local", nlohmann::json::array({{{"gpus", gpus}}})}};
}

// The CUDA_VISIBLE_DEVICES value that gives a test exactly the GPU ctest allocated to it:
// `allocation` is CTEST_RESOURCE_GROUP_0_GPUS ("id:1,slots:1"); the id indexes the parent's
// CUDA_VISIBLE_DEVICES list when one is set (ids are indices as the spec's writer saw them).
// nullopt when there is no allocation or it cannot be read.
inline std::optional<std::string> visible_devices_for_allocation(const char* allocation, const char* parent_visible) {
  if (allocation == nullptr) return std::nullopt;
  const std::string a(allocation);
  const size_t pos = a.find("id:");
  if (pos == std::string::npos) return std::nullopt;
  const size_t end = a.find_first_of(",;", pos);
  const std::string id = a.substr(pos + 3, end == std::string::npos ? std::string::npos : end - pos - 3);
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  if (parent_visible == nullptr || *parent_visible == '\0') return id;
  std::vector<std::string> parent;
  std::string item;
  for (const char* p = parent_visible;; ++p) {
    if (*p == ',' || *p == '\0') {
      parent.push_back(item);
      item.clear();
      if (*p == '\0') break;
    } else {
      item += *p;
    }
  }
  const size_t index = std::stoul(id);
  if (index >= parent.size()) return std::nullopt;
  return parent[index];
}

}  // namespace archbench
