#include "report/report_dir.h"

#include "core/safe_write.h"
#include "report/sanitize.h"

namespace ncdx::report {

core::Status write_report_dir(const std::filesystem::path& dir, const ReportFiles& files, bool force) {
  // One safe writer (core/safe_write.h): a symlinked DIR or a non-empty one is refused without
  // --force, every file lands below DIR by temp file + rename.
  core::SafeDirOptions o;
  o.force = force;
  o.what = "report directory";
  auto d = core::SafeDir::open(dir, o);
  if (!d) return d.status();
  for (const auto& [name, content] : files) {
    // Text a person or a CI system reads passes the display sanitiser; JSON, HTML and the
    // Prometheus file keep their own escaping.
    bool text = name.ends_with(".txt") || name.ends_with(".md") || name.ends_with(".xml");
    if (auto st = d->write(name, text ? sanitize_text(content) : content); !st) return st;
  }
  return core::Status::ok();
}

}  // namespace ncdx::report
