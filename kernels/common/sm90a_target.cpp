#include "kernels/common/sm90a_target.hpp"

#include <stdexcept>
#include <string>

namespace archbench::kernels {

arch::SingleTarget sm90a_target() {
  return {arch::CodeTarget{arch::ImageKind::Sass, 90, arch::Suffix::ArchSpecific, 90, {}},
          "wgmma code is compiled only for sm_90a, when the arch list has 9.0 or 9.0a"};
}

void throw_without_sm90a(const char* fn) {
  const arch::SingleTarget t = sm90a_target();
  throw std::runtime_error(std::string(fn) + ": this build has no " + t.target.name() + " target: " + t.why +
                           "; add 9.0 or 9.0a to the arch list");
}

}  // namespace archbench::kernels
