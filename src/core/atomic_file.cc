#include "core/atomic_file.h"

#include <cstdio>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace ncdx::core {

Status write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  auto tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::not_found(tmp.string() + ": cannot create");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) return Status::internal(tmp.string() + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return Status::internal(path.string() + ": rename failed");
  }
  return Status::ok();
}

}  // namespace ncdx::core
