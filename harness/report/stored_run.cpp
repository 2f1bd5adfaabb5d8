#include "harness/report/stored_run.hpp"

#include <fstream>

#include "harness/result/result_json.hpp"

namespace archbench {

StoredRun load_stored_run(const std::string& path) {
  StoredRun run;
  run.path = path;
  std::vector<DeviceResults> devices = load_run_results(path);  // validates size, schema, operators
  nlohmann::json j;
  try {
    std::ifstream f(path, std::ios::binary);
    j = nlohmann::json::parse(f);
    run.build = j.at("build").get<BuildManifest>();
    run.environment = j.value("environment", nlohmann::json::object()).get<Environment>();
    const auto& stored = j.at("devices");
    for (size_t i = 0; i < devices.size(); ++i) {
      StoredDevice d{std::move(devices[i]), std::nullopt, {}};
      const auto& c = stored.at(i).value("ceilings", nlohmann::json());
      if (!c.is_null()) d.ceilings = c.get<Ceilings>();
      d.paths = stored.at(i).value("paths", nlohmann::json::array()).get<std::vector<PathChoice>>();
      run.devices.push_back(std::move(d));
    }
  } catch (const nlohmann::json::exception& e) {
    throw StoredFileError(path + ": missing or malformed field: " + e.what());
  }
  return run;
}

}  // namespace archbench
