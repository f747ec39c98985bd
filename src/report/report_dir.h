#pragma once
// Writes a report directory (--output DIR): report.json, report.html, summary.txt, junit.xml,
// metrics.prom. Each file is written atomically; an existing directory with a report in it is
// never clobbered without --force (docs/OUTPUT.md "Report directory").
#include <filesystem>
#include <map>
#include <string>

#include "core/result.h"

namespace ncdx::report {

// name → content, e.g. {"report.json", "..."}.
using ReportFiles = std::map<std::string, std::string>;

core::Status write_report_dir(const std::filesystem::path& dir, const ReportFiles& files, bool force);

}  // namespace ncdx::report
