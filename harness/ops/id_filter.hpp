// The --filter language over operator ids: one or more fnmatch globs separated by commas, an id
// matches when any glob does ("matmul/*,*/f16/*"). Operator ids never contain commas.
#pragma once

#include <string_view>

namespace archbench {

[[nodiscard]] bool id_matches(std::string_view filter, std::string_view id);

}  // namespace archbench
