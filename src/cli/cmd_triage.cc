// `ncdx triage LOGS...`: name the failure of a job from the logs of all its ranks.
#include <cstdio>
#include <iostream>

#include "analyze/logs/log_source.h"
#include "analyze/fr/analyze.h"
#include "analyze/triage/verdict.h"
#include "analyze/triage/from_fr.h"
#include "analyze/triage/scan.h"
#include "analyze/logs/decompress_budget.h"
#include "cli/command.h"
#include "cli/flag_checks.h"
#include "cli/triage_follow.h"
#include "core/json.h"
#include "core/log.h"
#include "core/strings.h"
#include "core/term.h"
#include "knowledge/embedded.h"
#include "knowledge/signatures.h"
#include "report/context.h"
#include "report/fr_summary.h"
#include "report/report_dir.h"
#include "report/triage_files.h"
#include "report/triage_render.h"
#include "report/sanitize.h"

namespace ncdx::cli {
namespace {

struct TriageOptions {
  std::vector<std::string> inputs;
  std::string example;  // --example ID: a bundled real incident
  std::optional<long long> expect_timeout;
  std::size_t max_evidence = 6;
  std::string fr;  // --fr PATH: Flight Recorder dumps
  bool follow = false;
  double idle = 0;
  std::string max_decompressed;  // --max-decompressed SIZE
  bool progress = false;         // --progress
};

// Nothing usable read: the input problems decide between "not found" and "bad input".
int input_failure_code(const analyze::InputSummary& in) {
  for (const auto& p : in.problems)
    if (p.code() == core::Exit::bad_input) return core::to_int(core::Exit::bad_input);
  return core::to_int(core::Exit::not_found);
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
    return fail("triage", core::Status::internal(sigs.status().message()));
  }
  if (o.inputs.empty() && o.example.empty() && o.fr.empty()) {
    return fail("triage", core::Status::usage("give log files, directories or globs (or - for stdin), or --example"));
  }
  if (!o.max_decompressed.empty()) {
    auto b = parse_byte_size(o.max_decompressed);
    if (!b || *b == 0) {
      std::fprintf(stderr, "ncdx triage: --max-decompressed '%s': expected a size such as 64G or 512M\n",
                   report::sanitize(o.max_decompressed).c_str());
      return 64;
    }
    analyze::DecompressBudget budget = analyze::decompress_budget();
    budget.max_bytes = *b;
    budget.max_ratio = 0;  // an explicit size is the one limit
    analyze::set_decompress_budget(budget);
  }
  analyze::set_read_progress(o.progress);
  analyze::CorrelateOptions copts;
  copts.expect_timeout_s = o.expect_timeout;
  copts.max_evidence = o.max_evidence;
  if (o.follow) return run_triage_follow(o.inputs, o.idle, *sigs, copts, g);
  auto expanded = analyze::expand_inputs(o.inputs);
  analyze::Scanner scanner(*sigs);
  if (!o.example.empty()) {
    auto text = knowledge::embedded("incidents/" + o.example + ".log");
    if (!text) {
      return fail("triage", core::Status::not_found("no bundled incident '" + o.example + "' (see `ncdx docs` for incidents/*.log)"));
    }
    auto file = scanner.add_file("example:" + o.example, {});
    long long n = 0;
    for (auto line : core::split(*text, '\n')) scanner.feed(file, ++n, line);
  }
  for (auto& p : expanded.problems) {
    core::log::warn("{}", p.message());
    scanner.note_problem(p);
  }
  // Flight Recorder dumps among the inputs (nccl_trace_rank_*) are read as dumps, not as logs.
  std::string fr_path = o.fr;
  if (auto found = analyze::take_fr_inputs(expanded.files); fr_path.empty()) fr_path = found;
  std::optional<analyze::FrAnalysis> fr;
  if (!fr_path.empty()) {
    auto dump = analyze::read_fr_path(fr_path);
    if (!dump) {
      return fail("triage", dump.status());
    }
    fr = analyze::analyze_fr(*dump);
  }
  for (const auto& f : expanded.files) scanner.scan_file(f);
  const auto& scan = scanner.finish();
  if (scan.input.lines == 0 && !scan.input.problems.empty() && !fr) {
    for (const auto& p : scan.input.problems) std::fprintf(stderr, "ncdx triage: %s\n", p.message().c_str());
    return input_failure_code(scan.input);
  }
  for (const auto& p : scan.input.problems)
    if (std::find_if(expanded.problems.begin(), expanded.problems.end(),
                     [&](const core::Status& s) { return s.message() == p.message(); }) == expanded.problems.end())
      core::log::warn("{}", p.message());

  auto result = analyze::correlate(scan, *sigs, copts, fr ? analyze::score_fr_findings(*fr) : std::vector<analyze::ScoredFinding>{});
  auto context = report::make_context(seen_versions(result), !g.no_timestamps);
  auto json = report::triage_json(result, context);
  json["flight_recorder"] = fr ? analyze::to_json(*fr) : nlohmann::json(nullptr);

  if (!g.output.empty())
    if (auto st = report::write_report_dir(g.output, report::triage_report_files(result, json), g.force); !st)
      return fail("triage", st);
  if (g.json)
    std::cout << core::dump_json(json);
  else {
    std::cout << report::sanitize_text(report::render_triage_text(result, core::color_enabled(stdout), core::output_columns(stdout)),
                                       core::color_enabled(stdout));
    if (fr) std::cout << "\nFLIGHT RECORDER\n" << report::sanitize_text(report::format_fr_summary(*fr, core::color_enabled(stdout)), core::color_enabled(stdout));
  }
  // "Nothing found" is only an answer when everything was read: with unreadable or corrupt parts
  // it is the input's exit code, so a CI gate does not pass on a half-read log.
  if (result.verdict.klass == "none" && !result.input.problems.empty()) return input_failure_code(result.input);
  return core::exit_code_for(report::triage_outcome(result));
}

}  // namespace

CLI::App* add_triage(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  static TriageOptions o;
  auto* cmd = root.add_subcommand("triage");
  cmd->add_option("inputs", o.inputs, "log files, directories (recursive), globs, .gz/.zst, or - for stdin");
  cmd->add_option("--example", o.example, "triage a bundled real incident (pytorch-81628, nccl-525, determined-8915)")
      ->expected(0, 1);
  cmd->add_option("--expect-timeout", o.expect_timeout,
                  "the collective timeout (seconds) you set; a different observed Timeout(ms) is reported")
      ->check(integer_in(1, 1000000000));
  cmd->add_option("--fr", o.fr, "PyTorch Flight Recorder dumps: a file, a directory of nccl_trace_rank_* or a prefix");
  cmd->add_flag("--follow", o.follow, "tail the logs (and new files in directories), alert on each new finding");
  cmd->add_option("--idle", o.idle, "with --follow: stop after this many seconds without new lines (0 = until Ctrl-C)")
      ->check(number_in(0, 1e9));
  cmd->add_option("--max-decompressed", o.max_decompressed,
                  "decoded bytes read from one .gz/.zst before it is cut off with a warning (default: 64G, "
                  "or 1000x the compressed size past 256M)");
  cmd->add_flag("--progress", o.progress, "report long reads on stderr even when it is not a terminal");
  cmd->add_option("--max-evidence", o.max_evidence, "evidence lines per finding")->capture_default_str()->check(integer_in(0, 100000));
  cmd->callback([cmd, &global, &exit_code] {
    if (cmd->count("--example") > 0 && o.example.empty()) o.example = "pytorch-81628";
    exit_code = run_triage(o, global);
  });
  return cmd;
}

}  // namespace ncdx::cli
