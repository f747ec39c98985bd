// `ncdx triage LOGS...`: name the failure of a job from the logs of all its ranks.
#include <cstdio>
#include <iostream>

#include "analyze/log_source.h"
#include "analyze/triage_correlate.h"
#include "analyze/triage_scan.h"
#include "cli/command.h"
#include "cli/triage_follow.h"
#include "core/json.h"
#include "core/log.h"
#include "core/strings.h"
#include "core/term.h"
#include "knowledge/embedded.h"
#include "knowledge/signatures.h"
#include "report/context.h"
#include "report/junit.h"
#include "report/report_dir.h"
#include "report/triage_render.h"

namespace ncdx::cli {
namespace {

struct TriageOptions {
  std::vector<std::string> inputs;
  std::string example;  // --example ID: a bundled real incident
  std::optional<long long> expect_timeout;
  std::size_t max_evidence = 6;
  bool follow = false;
  double idle = 0;
};

int exit_for(const analyze::TriageResult& r) {
  if (r.verdict.klass == "none") return 0;
  return r.verdict.severity >= core::Severity::error ? 2 : r.verdict.severity == core::Severity::warn ? 1 : 0;
}

// Nothing usable read: the input problems decide between "not found" and "bad input".
int input_failure_code(const analyze::InputSummary& in) {
  for (const auto& p : in.problems)
    if (p.code() == core::Exit::bad_input) return 65;
  return 66;
}

nlohmann::json seen_versions(const analyze::TriageResult& r) {
  nlohmann::json seen = nlohmann::json::object();
  for (const auto& [rank, p] : r.ranks)
    if (p.nccl_version) {
      seen["nccl"] = *p.nccl_version;
      break;
    }
  return seen;
}

int run_triage(const TriageOptions& o, const GlobalOptions& g) {
  auto sigs = knowledge::SignatureSet::load_embedded();
  if (!sigs) {
    std::fprintf(stderr, "ncdx triage: %s\n", sigs.status().message().c_str());
    return 70;
  }
  if (o.inputs.empty() && o.example.empty()) {
    std::fprintf(stderr, "ncdx triage: give log files, directories or globs (or - for stdin), or --example\n");
    return 64;
  }
  analyze::CorrelateOptions copts;
  copts.expect_timeout_s = o.expect_timeout;
  copts.max_evidence = o.max_evidence;
  if (o.follow) return run_triage_follow(o.inputs, o.idle, *sigs, copts, g);
  auto expanded = analyze::expand_inputs(o.inputs);
  analyze::Scanner scanner(*sigs);
  if (!o.example.empty()) {
    auto text = knowledge::embedded("incidents/" + o.example + ".log");
    if (!text) {
      std::fprintf(stderr, "ncdx triage: no bundled incident '%s' (see `ncdx docs` for incidents/*.log)\n", o.example.c_str());
      return 66;
    }
    auto file = scanner.add_file("example:" + o.example, {});
    long long n = 0;
    for (auto line : core::split(*text, '\n')) scanner.feed(file, ++n, line);
  }
  for (auto& p : expanded.problems) {
    core::log::warn("{}", p.message());
    scanner.note_problem(p);
  }
  for (const auto& f : expanded.files) scanner.scan_file(f);
  const auto& scan = scanner.finish();
  if (scan.input.lines == 0 && !scan.input.problems.empty()) {
    for (const auto& p : scan.input.problems) std::fprintf(stderr, "ncdx triage: %s\n", p.message().c_str());
    return input_failure_code(scan.input);
  }
  for (const auto& p : scan.input.problems)
    if (std::find_if(expanded.problems.begin(), expanded.problems.end(),
                     [&](const core::Status& s) { return s.message() == p.message(); }) == expanded.problems.end())
      core::log::warn("{}", p.message());

  auto result = analyze::correlate(scan, *sigs, copts);
  auto context = report::make_context(seen_versions(result), !g.no_timestamps);
  auto json = report::triage_json(result, context);

  if (!g.output.empty()) {
    std::vector<report::JUnitCase> cases;
    cases.push_back({"triage", result.verdict.id, result.verdict.klass == "none" ? "PASS" : exit_for(result) == 2 ? "FAIL" : "WARN",
                     result.verdict.title});
    for (const auto& f : result.findings)
      cases.push_back({"triage", f.id, f.severity >= core::Severity::error ? "FAIL" : f.severity == core::Severity::warn ? "WARN" : "PASS", f.title});
    report::ReportFiles files = {
        {"report.json", core::dump_json(json)},
        {"report.html", report::render_triage_html(result)},
        {"summary.txt", report::render_triage_text(result, false)},
        {"junit.xml", report::render_junit("ncdx.triage", cases)},
        {"metrics.prom", "# HELP ncdx_triage_verdict_severity 0 none/info, 1 warn, 2 error, 3 critical\n"
                         "# TYPE ncdx_triage_verdict_severity gauge\nncdx_triage_verdict_severity{class=\"" +
                             result.verdict.klass + "\"} " +
                             std::to_string(result.verdict.klass == "none" ? 0 : static_cast<int>(result.verdict.severity)) + "\n"}};
    if (auto st = report::write_report_dir(g.output, files, g.force); !st) {
      std::fprintf(stderr, "ncdx triage: %s\n", st.message().c_str());
      return core::to_int(st.code());
    }
  }
  if (g.json)
    std::cout << core::dump_json(json);
  else
    std::cout << report::render_triage_text(result, core::color_enabled(stdout));
  return exit_for(result);
}

}  // namespace

CLI::App* add_triage(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  static TriageOptions o;
  auto* cmd = root.add_subcommand("triage", "name the failure of a job: class, culprit rank/host, root cause, fix");
  cmd->add_option("inputs", o.inputs, "log files, directories (recursive), globs, .gz/.zst, or - for stdin");
  cmd->add_option("--example", o.example, "triage a bundled real incident (pytorch-81628, nccl-525, determined-8915)")
      ->expected(0, 1);
  cmd->add_option("--expect-timeout", o.expect_timeout,
                  "the collective timeout (seconds) you set; a different observed Timeout(ms) is reported");
  cmd->add_flag("--follow", o.follow, "tail the logs (and new files in directories), alert on each new finding");
  cmd->add_option("--idle", o.idle, "with --follow: stop after this many seconds without new lines (0 = until Ctrl-C)");
  cmd->add_option("--max-evidence", o.max_evidence, "evidence lines per finding")->capture_default_str();
  cmd->callback([cmd, &global, &exit_code] {
    if (cmd->count("--example") > 0 && o.example.empty()) o.example = "pytorch-81628";
    exit_code = run_triage(o, global);
  });
  return cmd;
}

}  // namespace ncdx::cli
