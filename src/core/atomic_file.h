#pragma once
// Atomic writes (temp file + rename) so a crash never leaves a half report (docs/OUTPUT.md "Report directory").
#include <filesystem>
#include <string_view>

#include "core/result.h"

namespace ncdx::core {

Status write_file_atomic(const std::filesystem::path& path, std::string_view content);

}  // namespace ncdx::core
