#include "harness/framework/library_images.hpp"

#include <exception>
#include <filesystem>

#include "harness/binary/binary_file.hpp"
#include "harness/binary/device_coverage.hpp"

namespace archbench::framework {

std::vector<std::string> libraries_without_image(const std::vector<std::string>& libraries, arch::ComputeCapability cc) {
  std::vector<std::string> out;
  for (const auto& path : libraries) {
    try {
      const auto file = binary::BinaryFile::open(path);
      if (file.entries().empty()) continue;
      const auto kind = binary::classify_binary(std::filesystem::path(path).filename().string(), file.entries());
      // The driver is not judged here: the framework already ran on it.
      const auto tally = binary::tally_containers(file.entries(), arch::DeviceFacts{cc, {}});
      if (binary::runs(binary::judge(kind.kind, tally))) continue;
      out.push_back(path + (tally.failing_by_cause.empty() ? std::string(": no image for " + cc.str())
                                                           : ": " + tally.failing_by_cause.begin()->first));
    } catch (const std::exception&) {
      // Unreadable (gone, not ELF): it cannot be the one to name.
    }
  }
  return out;
}

}  // namespace archbench::framework
