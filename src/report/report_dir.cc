#include "report/report_dir.h"

#include <system_error>

#include "core/atomic_file.h"

namespace ncdx::report {

core::Status write_report_dir(const std::filesystem::path& dir, const ReportFiles& files, bool force) {
  std::error_code ec;
  if (std::filesystem::exists(dir / "report.json", ec) && !force)
    return core::Status::usage(dir.string() + ": already holds a report (use --force to overwrite)");
  std::filesystem::create_directories(dir, ec);
  if (ec) return core::Status::not_found(dir.string() + ": cannot create directory: " + ec.message());
  for (const auto& [name, content] : files) {
    auto st = core::write_file_atomic(dir / name, content);
    if (!st) return st;
  }
  return core::Status::ok();
}

}  // namespace ncdx::report
