#pragma once
// Reporters for a doctor run: terminal text, JSON (schema ncdx.doctor/1, docs/schema/
// doctor.schema.json), HTML with inline-SVG heatmaps, JUnit and Prometheus. They compute nothing.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "analyze/doctor/run.h"
#include "report/report_dir.h"

namespace ncdx::report {

// How the terminal text is laid out. The defaults are the file form (summary.txt): every row,
// lines whole.
struct DoctorTextStyle {
  bool color = false;
  std::size_t width = 0;  // columns to fit (core::output_columns); 0 = no limit
  bool all = true;        // false: SKIP rows folded into one line per reason (`--all` lists them)
};
// Categories with a FAIL come first, then WARN; inside a category FAIL, WARN, INFO, PASS (registry
// order among equals); fixes FAIL before WARN.
std::string render_doctor_text(const analyze::DoctorRun& run, const DoctorTextStyle& style = {});
nlohmann::json render_doctor_json(const analyze::DoctorRun& run, bool timestamps);
std::string render_doctor_html(const analyze::DoctorRun& run, const nlohmann::json& report);
// report: render_doctor_json's object (its context names the host and the time).
std::string render_doctor_junit(const analyze::DoctorRun& run, const nlohmann::json& report);
// metrics.prom; `now` (Unix seconds) adds ncdx_doctor_last_run_timestamp_seconds.
std::string render_doctor_prom(const analyze::DoctorRun& run, std::optional<double> now = std::nullopt);
// report.json, report.html, summary.txt, junit.xml, metrics.prom
ReportFiles doctor_report_files(const analyze::DoctorRun& run, bool timestamps);
// Markdown table of the check registry (docs/CHECKS.md).
std::string render_check_catalog();

}  // namespace ncdx::report
