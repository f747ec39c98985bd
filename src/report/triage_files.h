#pragma once
// Every file of a triage report directory (--output DIR): report.json, report.html, summary.txt,
// junit.xml, metrics.prom; and the outcome of a triage (its exit code).
#include <nlohmann/json.hpp>

#include "analyze/triage/model.h"
#include "core/outcome.h"
#include "report/report_dir.h"

namespace ncdx::report {

// PASS when nothing was found; otherwise the verdict's severity (error/critical FAIL, warn WARN,
// info INFO).
core::Outcome triage_outcome(const analyze::TriageResult& r);
// `report` is the ncdx.triage/1 document already built (triage_json + flight_recorder).
ReportFiles triage_report_files(const analyze::TriageResult& r, const nlohmann::json& report);

}  // namespace ncdx::report
