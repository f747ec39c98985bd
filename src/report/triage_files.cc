#include "report/triage_files.h"

#include "core/json.h"
#include "report/junit.h"
#include "report/triage_render.h"

namespace ncdx::report {

core::Outcome triage_outcome(const analyze::TriageResult& r) {
  return r.verdict.klass == "none" ? core::Outcome::pass : core::outcome_of(r.verdict.severity);
}

namespace {

std::string render_triage_junit(const analyze::TriageResult& r, const nlohmann::json& report) {
  std::vector<JUnitCase> cases;
  // A verdict of severity info is a WARN case here (it names a failure class), unlike the findings.
  core::Outcome v = triage_outcome(r);
  cases.push_back({"triage", r.verdict.id, v == core::Outcome::info ? core::Outcome::warn : v, r.verdict.title});
  for (const auto& f : r.findings) cases.push_back({"triage", f.id, core::outcome_of(f.severity), f.title});
  // The suite is the machine that read the logs (the context's host): the logs name many hosts.
  return render_junit({{"ncdx.triage", "", std::move(cases)}}, report.value("context", nlohmann::json::object()));
}

std::string render_triage_prom(const analyze::TriageResult& r) {
  return "# HELP ncdx_triage_verdict_severity 0 none/info, 1 warn, 2 error, 3 critical\n"
         "# TYPE ncdx_triage_verdict_severity gauge\nncdx_triage_verdict_severity{class=\"" +
         r.verdict.klass + "\"} " + std::to_string(r.verdict.klass == "none" ? 0 : static_cast<int>(r.verdict.severity)) +
         "\n";
}

}  // namespace

ReportFiles triage_report_files(const analyze::TriageResult& r, const nlohmann::json& report) {
  return {{"report.json", core::dump_json(report)},
          {"report.html", render_triage_html(r)},
          {"summary.txt", render_triage_text(r, false)},
          {"junit.xml", render_triage_junit(r, report)},
          {"metrics.prom", render_triage_prom(r)}};
}

}  // namespace ncdx::report
