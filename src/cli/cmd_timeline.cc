// `ncdx timeline FILES...`: communication heatmap, stragglers, fail-slow and bottleneck windows
// from PyTorch profiler (Kineto) traces, Ray timelines, NCCL Inspector JSONL and step-time logs;
// busbw per collective, with --spec against what `ncdx model` expects (analyze/timeline/busbw.cc).
#include <cstdio>
#include <fstream>
#include <iostream>

#include "analyze/logs/log_source.h"
#include "analyze/timeline/expected_busbw.h"
#include "analyze/timeline/read_inputs.h"
#include "analyze/timeline/result.h"
#include "cli/command.h"
#include "cli/flag_checks.h"
#include "core/atomic_file.h"
#include "core/json.h"
#include "core/outcome.h"
#include "core/strings.h"
#include "core/term.h"
#include "model/cost/spec_parse.h"
#include "report/context.h"
#include "report/report_dir.h"
#include "report/timeline_render.h"

namespace ncdx::cli {
namespace {

struct TimelineCliOptions {
  std::vector<std::string> inputs;
  std::string bucket, window, ranks, svg, html, spec, nccl;
  unsigned jobs = 0;  // 0: one per hardware thread (analyze::timeline::timeline_jobs)
};

// "10ms", "250us", "1.5s", "2000" (µs) → ns.
std::optional<long long> parse_duration(std::string_view s) {
  double mult = 1000;  // µs
  if (s.size() > 2 && s.substr(s.size() - 2) == "ms") mult = 1e6, s.remove_suffix(2);
  else if (s.size() > 2 && s.substr(s.size() - 2) == "us") mult = 1e3, s.remove_suffix(2);
  else if (s.size() > 2 && s.substr(s.size() - 2) == "ns") mult = 1, s.remove_suffix(2);
  else if (s.size() > 1 && s.back() == 's') mult = 1e9, s.remove_suffix(1);
  auto v = core::parse_double(s);
  if (!v || *v < 0 || *v > 1e12) return std::nullopt;
  return static_cast<long long>(*v * mult);
}

core::Status parse_options(const TimelineCliOptions& c, analyze::timeline::TimelineOptions& o) {
  if (!c.bucket.empty()) {
    auto b = parse_duration(c.bucket);
    if (!b || *b <= 0) return core::Status::usage("--bucket: expected a duration such as 10ms, 500us or 2s");
    o.bucket = *b;
  }
  if (!c.window.empty()) {
    auto colon = c.window.find(':');
    if (colon == std::string::npos) return core::Status::usage("--window: expected FROM:TO (durations from the first event, e.g. 2s:5s; either may be empty)");
    std::string a = c.window.substr(0, colon), b = c.window.substr(colon + 1);
    if (!a.empty()) {
      auto v = parse_duration(a);
      if (!v) return core::Status::usage("--window: bad FROM '" + a + "'");
      o.window_from = *v;
    }
    if (!b.empty()) {
      auto v = parse_duration(b);
      if (!v) return core::Status::usage("--window: bad TO '" + b + "'");
      o.window_to = *v;
    }
    if (o.window_from && o.window_to && *o.window_to <= *o.window_from) return core::Status::usage("--window: TO must be after FROM");
  }
  if (!c.spec.empty() || !c.nccl.empty()) {
    if (c.spec.empty()) return core::Status::usage("--nccl needs --spec (the cluster whose busbw to expect)");
    auto spec = model::cost::parse_spec(c.spec);
    if (!spec.ok()) return spec.status();
    // The NCCL version whose model to use: --nccl, else 2.27.7 (the default of `ncdx model`).
    auto ver = c.nccl.empty() ? std::optional<model::cost::NcclVersion>(model::cost::NcclVersion{2, 27, 7})
                              : model::cost::NcclVersion::parse(c.nccl);
    if (!ver) return core::Status::usage("--nccl expects an NCCL version such as 2.27.7 (got \"" + c.nccl + "\")");
    if (auto st = analyze::timeline::set_expectation(o, *spec, *ver); !st) return st;
  }
  if (!c.ranks.empty()) {
    for (auto part : core::split(c.ranks, ',')) {
      auto dash = part.find('-');
      auto lo = core::parse_int(part.substr(0, dash));
      auto hi = dash == std::string_view::npos ? lo : core::parse_int(part.substr(dash + 1));
      if (!lo || !hi || *lo < 0 || *hi < *lo || *hi - *lo > 1000000)
        return core::Status::usage("--ranks: expected a list such as 0-3,8");
      for (long long r = *lo; r <= *hi; ++r) o.ranks.push_back(static_cast<int>(r));
    }
  }
  return {};
}

int run(const TimelineCliOptions& c, const GlobalOptions& g) {
  analyze::timeline::TimelineOptions o;
  if (auto st = parse_options(c, o); !st) {
    std::fprintf(stderr, "ncdx timeline: %s\n", st.message().c_str());
    return core::to_int(st.code());
  }
  auto expanded = analyze::expand_inputs(c.inputs);
  for (const auto& p : expanded.problems) {
    std::fprintf(stderr, "ncdx timeline: %s\n", p.message().c_str());
    return core::to_int(p.code());
  }
  if (expanded.files.empty()) {
    std::fprintf(stderr, "ncdx timeline: no input files\n");
    return 66;
  }
  analyze::timeline::TraceSet set;
  std::vector<std::string> paths;
  for (const auto& f : expanded.files) paths.push_back(f.path);
  if (auto st = analyze::timeline::read_timeline_inputs(paths, c.jobs, set); !st) {
    std::fprintf(stderr, "ncdx timeline: %s\n", st.message().c_str());
    return core::to_int(st.code());
  }
  auto result = analyze::timeline::analyze_timeline(set, o);
  for (const auto& f : expanded.files) result.inputs.push_back(f.display);
  auto json = report::timeline_json(result, report::make_context(nlohmann::json::object(), !g.no_timestamps));
  auto write = [](const std::string& path, const std::string& text) -> int {
    if (auto st = core::write_file_atomic(path, text); !st) {
      std::fprintf(stderr, "ncdx timeline: %s\n", st.message().c_str());
      return core::to_int(st.code());
    }
    return 0;
  };
  if (!c.svg.empty())
    if (int e = write(c.svg, report::render_timeline_svg(result))) return e;
  if (!c.html.empty())
    if (int e = write(c.html, report::render_timeline_html(result))) return e;
  if (!g.output.empty()) {
    report::ReportFiles files = {{"report.json", core::dump_json(json)},
                                 {"report.html", report::render_timeline_html(result)},
                                 {"summary.txt", report::render_timeline_text(result, false)},
                                 {"timeline.svg", report::render_timeline_svg(result)}};
    if (auto st = report::write_report_dir(g.output, files, g.force); !st) {
      std::fprintf(stderr, "ncdx timeline: %s\n", st.message().c_str());
      return core::to_int(st.code());
    }
  }
  if (g.json) std::cout << core::dump_json(json);
  else std::cout << report::render_timeline_text(result, core::color_enabled(stdout));
  return core::exit_code_for(report::timeline_tally(result).worst());
}

}  // namespace

CLI::App* add_timeline(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("timeline");
  static TimelineCliOptions o;
  cmd->add_option("inputs", o.inputs, "Kineto traces (one per rank), Ray timeline, NCCL Inspector JSONL, step-time logs, "
                                      "nccl-tests output (text or -J JSON), ncdx bench --json; "
                                      "files, directories, globs; .gz/.zst")->required();
  cmd->add_option("--bucket", o.bucket, "heatmap bucket (e.g. 10ms, 500us; default: about 60 columns)");
  cmd->add_option("--window", o.window, "analyse only FROM:TO after the first event (e.g. 2s:5s, :500ms)");
  cmd->add_option("--ranks", o.ranks, "analyse only these ranks (e.g. 0-3,8)");
  cmd->add_option("--spec", o.spec, "cluster (as for ncdx model: \"nodes=2,gpus=8,gpu=H100,nic=8x400G-IB\"): busbw expected per collective and size");
  cmd->add_option("--nccl", o.nccl, "NCCL version whose model --spec uses (default 2.27.7)");
  cmd->add_option("--jobs", o.jobs, "files read at once, one thread each (default: one per CPU, at most one per file; "
                                      "the output does not depend on it)")->check(integer_in(1, 1024));
  cmd->add_option("--svg", o.svg, "also write the heatmap as SVG to FILE");
  cmd->add_option("--html", o.html, "also write a self-contained HTML page to FILE");
  cmd->callback([&exit_code, &global] { exit_code = run(o, global); });
  return cmd;
}

}  // namespace ncdx::cli
