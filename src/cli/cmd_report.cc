// `ncdx report FILE...`: saved JSON results of any ncdx command (doctor, cluster, triage, audit,
// env, compat, topo, bench, model, timeline) as one text report, or with --output DIR one
// self-contained report.html (+ summary.txt, report.json). Exit code: the worst input's.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "analyze/results/load.h"
#include "cli/command.h"
#include "core/json.h"
#include "core/outcome.h"
#include "core/term.h"
#include "report/context.h"
#include "report/report_dir.h"
#include "report/results_render.h"
#include "report/sanitize.h"
#include "report/summary_json.h"

namespace ncdx::cli {
namespace {

struct ReportOpts {
  std::vector<std::string> inputs;
  bool all = false;
};

int fail_with(const core::Status& s) {
  std::fprintf(stderr, "ncdx report: %s\n", s.message().c_str());
  return core::to_int(s.code());
}

nlohmann::json summary_json(const std::vector<analyze::ResultDoc>& docs, bool timestamps) {
  nlohmann::json j;
  j["schema"] = "ncdx.report/1";
  j["context"] = report::make_context(nlohmann::json::object(), timestamps);
  j["inputs"] = nlohmann::json::array();
  core::Tally all;  // every input's items: the report's own summary
  for (const auto& d : docs) {
    core::Tally n;  // the document's own count when it has one, else its items counted here
    if (d.summary) n = *d.summary;
    else
      for (const auto& i : d.items)
        if (auto o = core::parse_outcome(i.status)) n.add(*o);
    all.pass += n.pass, all.info += n.info, all.warn += n.warn, all.fail += n.fail, all.skip += n.skip;
    j["inputs"].push_back({{"path", d.path},
                           {"schema", d.schema},
                           {"command", d.command},
                           {"headline", d.headline.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.headline)},
                           {"exit_code", d.exit_code},
                           {"summary", report::summary_json(n)},
                           {"matrices", d.matrices.size()}});
  }
  j["summary"] = report::summary_json(all);
  return j;
}

int run(const ReportOpts& o, const GlobalOptions& g) {
  auto docs = analyze::load_results(o.inputs);
  if (!docs) return fail_with(docs.status());
  // Failures first, across documents as within each: a report of a healthy node and a failed job
  // opens with the job (stable: the given order among equals).
  std::stable_sort(docs->begin(), docs->end(),
                   [](const analyze::ResultDoc& a, const analyze::ResultDoc& b) { return a.exit_code > b.exit_code; });
  int code = 0;
  for (const auto& d : *docs) code = std::max(code, d.exit_code);
  auto summary = summary_json(*docs, !g.no_timestamps);
  if (!g.output.empty()) {
    report::ReportFiles files = {{"report.html", report::render_results_html(*docs)},
                                 {"summary.txt", report::render_results_text(*docs, o.all, false)},
                                 {"report.json", core::dump_json(summary)}};
    if (auto s = report::write_report_dir(g.output, files, g.force); !s) return fail_with(s);
  }
  if (g.json) {
    std::cout << core::dump_json(summary);
  } else if (g.output.empty()) {
    std::cout << report::sanitize_text(report::render_results_text(*docs, o.all, core::color_enabled(stdout)), core::color_enabled(stdout));
  } else {
    std::fprintf(stderr, "ncdx report: wrote %s/report.html\n", g.output.c_str());
  }
  return code;
}

}  // namespace

CLI::App* add_report(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  static ReportOpts o;
  auto* cmd = root.add_subcommand("report");
  cmd->add_option("inputs", o.inputs, "JSON results of ncdx commands (--json output or report.json)")->required();
  cmd->add_flag("--all", o.all, "show SKIP rows instead of folding them");
  cmd->footer("\nExamples:\n  ncdx doctor --json > node.json; ncdx triage logs/ --json > triage.json\n"
              "  ncdx report node.json triage.json\n  ncdx report node.json triage.json --output report/   # report/report.html\n");
  cmd->callback([&exit_code, &global] { exit_code = run(o, global); });
  return cmd;
}

}  // namespace ncdx::cli
