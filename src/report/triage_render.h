#pragma once
// Renders a TriageResult: the terminal report (verdict, evidence, fixes, other findings, ranks,
// topology) and the ncdx.triage/1 JSON document.
#include <nlohmann/json.hpp>

#include <string>

#include "analyze/triage/model.h"

namespace ncdx::report {

// width: columns to fit (core::output_columns; 0 = lines whole, as in summary.txt): the verdict,
// evidence and fixes wrap with their continuation lines indented.
std::string render_triage_text(const analyze::TriageResult& r, bool color, std::size_t width = 0);
nlohmann::json triage_json(const analyze::TriageResult& r, const nlohmann::json& context);
// One line per finding, for --follow alerts.
std::string render_alert_line(const core::Finding& f, bool color);

}  // namespace ncdx::report

namespace ncdx::report {
// The self-contained HTML page of a triage report (--output DIR).
std::string render_triage_html(const analyze::TriageResult& r);
}  // namespace ncdx::report
