#include "tools/archbench/fleet.hpp"

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/util/text_wrap.hpp"
#include "tools/archbench/selection.hpp"

namespace archbench::cli {

std::vector<arch::DeviceSpec> read_fleet_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw UsageError("cannot read fleet file " + path);
  std::vector<arch::DeviceSpec> out;
  try {
    const auto j = nlohmann::json::parse(f);
    for (const auto& d : j.at("devices")) {
      std::string spec = d.contains("device") ? d.at("device").get<std::string>() : d.at("cc").get<std::string>();
      arch::DeviceSpec s = arch::parse_device_spec(spec);
      if (d.contains("driver")) s.driver = arch::parse_driver(d.at("driver").get<std::string>());
      if (d.contains("label")) s.label = d.at("label").get<std::string>();
      out.push_back(s);
    }
  } catch (const std::exception& e) {
    throw UsageError("fleet file " + path + ": " + e.what() +
                     " (expected {\"devices\": [{\"label\": ..., \"device\": \"A100\" or \"cc\": \"8.0\", \"driver\": \"12.8\"}]})");
  }
  if (out.empty()) throw UsageError("fleet file " + path + " lists no devices");
  return out;
}

std::vector<arch::DeviceSpec> device_specs(const std::vector<std::string>& specs, const std::string& driver,
                                           const std::string& fleet_path) {
  std::vector<arch::DeviceSpec> out;
  try {
    for (const auto& s : specs) {
      out.push_back(arch::parse_device_spec(s));
    }
    if (!fleet_path.empty()) {
      for (auto& d : read_fleet_file(fleet_path)) out.push_back(d);
    }
    if (!driver.empty()) {  // applies wherever no driver was given with the device
      const arch::CudaVersion v = arch::parse_driver(driver);
      for (auto& d : out) if (!d.driver.known()) d.driver = v;
    }
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return out;
}

std::optional<std::vector<arch::DeviceSpec>> device_specs_or_explain(const char* command,
                                                                     const std::vector<std::string>& specs,
                                                                     const std::string& driver,
                                                                     const std::string& fleet_path) {
  try {
    return device_specs(specs, driver, fleet_path);
  } catch (const UsageError& e) {
    std::cerr << text::wrap_text("archbench " + std::string(command) + ": " + e.what() + "\n");
    return std::nullopt;
  }
}

}  // namespace archbench::cli
