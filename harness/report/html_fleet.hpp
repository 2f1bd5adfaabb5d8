// The fleet matrix as one self-contained HTML page: a per-device summary, the failures and
// regressions first, then the matrix with each cell coloured by its verdict.
#pragma once

#include <string>

#include "harness/report/fleet_matrix.hpp"

namespace archbench::html {

[[nodiscard]] std::string fleet_page(const FleetMatrix& m);

}  // namespace archbench::html
