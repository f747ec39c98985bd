// `ncdx env lint|debug|recommend|docs`: lint an environment (live or --env-file) against the
// NCCL/PyTorch fact tables, emit the debug block, emit recommendations for a scale tier and fabric,
// print docs/ENV.md. Logic lives in analyze/env/, rendering in report/env_*; this file parses flags.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "analyze/config/env_file.h"
#include "analyze/env/lint.h"
#include "analyze/config/node_shape.h"
#include "analyze/compat/stack_versions.h"
#include "analyze/env/recommend.h"
#include "cli/command.h"
#include "cli/flag_checks.h"
#include "core/read_bounded.h"
#include "core/fs.h"
#include "core/json.h"
#include "core/outcome.h"
#include "core/strings.h"
#include "core/term.h"
#include "report/context.h"
#include "report/env_docs.h"
#include "report/env_render.h"
#include "report/sanitize.h"

extern char** environ;

namespace ncdx::cli {
namespace {

struct EnvOpts {
  std::string env_file, nccl, torch, fabric, format = "export", dir = "/tmp", interfaces, from;
  std::vector<std::string> engines, subsys;
  int nodes = 1, gpus = 8;
  bool debug_run = false;
};

int fail(const core::Status& s) { return cli::fail("env", s); }

core::Result<std::string> read_file(const std::string& path) {
  return core::read_bounded(path, 16u << 20, "not an env file");
}

std::vector<analyze::EnvSetting> live_env() {
  std::vector<analyze::EnvSetting> out;
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    out.push_back({std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)), "env"});
  }
  return out;
}

std::optional<analyze::ClusterShape> shape(const EnvOpts& o, bool given) {
  if (!given) return std::nullopt;
  analyze::RecommendInput r{o.nodes, o.gpus, o.fabric, std::nullopt, std::nullopt};
  return analyze::shape_of(r);
}

int run_lint(const EnvOpts& o, const GlobalOptions& g, bool shape_given) {
  auto nccl = version_flag("--nccl-version", o.nccl);
  if (!nccl) return fail(nccl.status());
  auto torch = version_flag("--torch-version", o.torch);
  if (!torch) return fail(torch.status());
  if (shape_given) {
    bool ok = false;
    for (const auto& f : analyze::fabrics()) ok |= f == o.fabric;
    if (!ok) return fail(core::Status::usage("--fabric must be one of " + core::join(analyze::fabrics(), "|")));
  }
  std::optional<std::string> text;  // the --env-file
  if (!o.env_file.empty()) {
    auto t = read_file(o.env_file);
    if (!t) return fail(t.status());
    text = std::move(*t);
  }
  core::FileSystem fs(g.root);
  const bool machine = o.env_file.empty() || g.root != "/";
  // Linting a machine: take NCCL / PyTorch versions from it when not given (the same detection as
  // `ncdx compat`), so version-gated rules judge the library the job will load.
  std::string nccl_from = nccl->has_value() ? "flag" : "", torch_from = torch->has_value() ? "flag" : "";
  if (machine && (!nccl->has_value() || !torch->has_value())) {
    auto found = analyze::detect_versions(fs);
    if (!nccl->has_value() && found.nccl.version) *nccl = found.nccl.version, nccl_from = found.nccl.source;
    if (!torch->has_value() && found.torch.version) *torch = found.torch.version, torch_from = found.torch.source;
  }
  const core::FileSystem no_root("/nonexistent-ncdx-root");
  const core::FileSystem& conf_fs = machine ? fs : no_root;  // where NCCL's config files are read
  analyze::EffectiveEnv eff;
  if (text) {
    // Straight into the maps, no setting list in between (an env file at the execve limit holds
    // ~300 000 settings); ~/.nccl.conf from the file's HOME when linting a machine.
    auto read = analyze::effective_env_file(*text, o.env_file, conf_fs, machine, *nccl);
    if (!read) return fail(read.status());
    eff = std::move(*read);
    text.reset();
  } else {
    auto base = live_env();
    std::optional<std::string> home;
    for (const auto& s : base) if (s.name == "HOME") home = s.value;
    eff = analyze::effective_env(base, conf_fs, home, *nccl);
  }
  analyze::EnvLintInput in;
  in.env = std::move(eff.env);
  in.origin = std::move(eff.origin);
  in.nccl = *nccl;
  in.torch = *torch;
  in.cluster = shape(o, shape_given);
  in.production = !o.debug_run;
  in.engines = o.engines;
  if (!o.interfaces.empty()) {
    for (auto t : core::split(o.interfaces, ',')) if (!t.empty()) in.interfaces.emplace_back(t);
  } else if (machine) {
    in.interfaces = fs.list("/sys/class/net");
  }
  const analyze::EnvRows rows = analyze::lint_env_rows(in);  // points into `in`
  if (g.json) {
    auto context = report::make_context({{"nccl", nccl->has_value() ? nlohmann::json((*nccl)->str()) : nlohmann::json(nullptr)}},
                                        !g.no_timestamps);
    nlohmann::json input = {{"env_file", o.env_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.env_file)},
                  {"nccl_version", nccl->has_value() ? nlohmann::json((*nccl)->str()) : nlohmann::json(nullptr)},
                  {"torch_version", torch->has_value() ? nlohmann::json((*torch)->str()) : nlohmann::json(nullptr)},
                  {"nccl_version_from", nccl_from.empty() ? nlohmann::json(nullptr) : nlohmann::json(nccl_from)},
                  {"torch_version_from", torch_from.empty() ? nlohmann::json(nullptr) : nlohmann::json(torch_from)},
                  {"production", in.production},
                  {"config_files", eff.files_read},
                  {"interfaces", in.interfaces}};
    report::write_lint_json(std::cout, rows, eff.shadowed, std::move(input), std::move(context));
  } else {
    if (!nccl_from.empty() && nccl_from != "flag") std::cout << report::sanitize_text("NCCL " + (*nccl)->str() + " (from " + nccl_from + ")\n");
    if (!torch_from.empty() && torch_from != "flag") std::cout << report::sanitize_text("PyTorch " + (*torch)->str() + " (from " + torch_from + ")\n");
    if (!nccl->has_value()) std::cout << "NCCL version unknown: version-gated rules judge NCCL " << "2.30.7 (pass --nccl-version)\n";
    const bool color = core::color_enabled(stdout) && !g.no_color;
    {
      report::SanitizedOut out(std::cout, color);  // flushed at the end of this block
      report::write_lint_text(out, rows, color, core::output_columns(stdout));
    }
    for (const auto& s : eff.shadowed)
      std::cout << "note: " << report::sanitize(s.origin) << " sets " << report::sanitize(s.name)
                << " but an earlier source wins (NCCL applies config files with setenv(..., 0))\n";
  }
  return core::exit_code_of(rows);
}

int emit_block(const std::vector<analyze::EnvRec>& recs, const EnvOpts& o, const GlobalOptions& g, const std::string& mode,
               const std::vector<std::string>& header, nlohmann::json extra) {
  if (g.json) {
    nlohmann::json j = {{"schema", "ncdx.env/1"}, {"mode", mode}};
    j["context"] = report::make_context(nlohmann::json::object(), !g.no_timestamps);
    for (auto& [k, v] : extra.items()) j[k] = v;
    auto b = report::block_json(recs);
    j["vars"] = b["vars"];
    j["notes"] = b["notes"];
    std::cout << core::dump_json(j);
    return 0;
  }
  auto text = report::render_block(recs, o.format, header);
  if (!text) return fail(text.status());
  std::cout << report::sanitize_text(*text);
  return 0;
}

int run_debug(const EnvOpts& o, const GlobalOptions& g) {
  auto nccl = version_flag("--nccl-version", o.nccl);
  if (!nccl) return fail(nccl.status());
  auto torch = version_flag("--torch-version", o.torch);
  if (!torch) return fail(torch.status());
  analyze::DebugInput in{*nccl, *torch, o.subsys, o.dir};
  auto recs = analyze::debug_env(in);
  if (!recs) return fail(recs.status());
  std::string nv = *nccl ? "NCCL " + (*nccl)->str() : "NCCL version not given";
  std::string tv = *torch ? "PyTorch " + (*torch)->str() : "PyTorch version not given";
  return emit_block(*recs, o, g, "debug", {"ncdx env debug (" + nv + ", " + tv + "): for a debugging run, not production"},
                    {{"nccl_version", *nccl ? nlohmann::json((*nccl)->str()) : nlohmann::json(nullptr)},
                     {"torch_version", *torch ? nlohmann::json((*torch)->str()) : nlohmann::json(nullptr)}});
}

int run_recommend(const EnvOpts& o, const GlobalOptions& g, bool gpus_given) {
  auto nccl = version_flag("--nccl-version", o.nccl);
  if (!nccl) return fail(nccl.status());
  auto torch = version_flag("--torch-version", o.torch);
  if (!torch) return fail(torch.status());
  analyze::RecommendInput in{o.nodes, o.gpus, o.fabric, *nccl, *torch};
  std::string from_note;
  if (!o.from.empty()) {
    // A doctor snapshot or `ncdx topo --json` output: its "topology" object gives the GPUs per node
    // and the intra-node fabric.
    auto shape = analyze::node_shape_from_file(o.from);
    if (!shape) return fail(shape.status());
    if (!gpus_given && shape->gpus > 0) in.gpus_per_node = shape->gpus;
    in.intra = shape->intra;
    if (in.fabric.empty()) {
      if (!in.intra) return fail(core::Status::bad_input(o.from + ": the GPU link matrix is unknown; pass --fabric"));
      in.fabric = *in.intra;
    }
    from_note = "; from " + o.from + ": " + std::to_string(shape->gpus) + " GPUs, intra-node " +
                in.intra.value_or("unknown");
  }
  if (in.fabric.empty()) return fail(core::Status::usage("--fabric is required (or --from a snapshot)"));
  auto recs = analyze::recommend_env(in);
  if (!recs) return fail(recs.status());
  int total = in.nodes * in.gpus_per_node;
  std::string nv = *nccl ? "NCCL " + (*nccl)->str() : "NCCL version not given: only settings every version reads";
  std::vector<std::string> header = {"ncdx env recommend: " + std::to_string(in.nodes) + " node(s) x " +
                                     std::to_string(in.gpus_per_node) + " GPUs = " + std::to_string(total) + " (tier " +
                                     analyze::scale_tier(total) + "), fabric " + in.fabric + from_note + "; " + nv};
  return emit_block(*recs, o, g, "recommend", header,
                    {{"tier", analyze::scale_tier(total)}, {"nodes", in.nodes}, {"gpus_per_node", in.gpus_per_node},
                     {"fabric", in.fabric}, {"intra_fabric", in.intra ? nlohmann::json(*in.intra) : nlohmann::json(nullptr)},
                     {"nccl_version", *nccl ? nlohmann::json((*nccl)->str()) : nlohmann::json(nullptr)}});
}

}  // namespace

CLI::App* add_env(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  static EnvOpts o;
  auto* cmd = root.add_subcommand("env");
  cmd->require_subcommand(1);

  auto* lint = cmd->add_subcommand("lint", "lint the current environment (or --env-file) for NCCL/PyTorch mistakes");
  lint->add_option("--env-file", o.env_file, "KEY=VALUE file (export prefix, quotes, # comments) instead of the live env");
  // `ncdx env lint job.env` is the same as --env-file job.env (both at once: usage error).
  static std::string positional_file;
  lint->add_option("env_file", positional_file, "the same as --env-file FILE");
  lint->add_option("--nccl-version", o.nccl, "NCCL version the job uses (e.g. 2.21.5)");
  lint->add_option("--torch-version", o.torch, "PyTorch version the job uses (e.g. 2.6.0)");
  auto* nodes_opt = lint->add_option("--nodes", o.nodes, "nodes in the job (with --fabric)")->check(integer_in(1, 1000000));
  lint->add_option("--gpus-per-node", o.gpus, "GPUs per node")->check(integer_in(1, 4096));
  auto* fabric_opt = lint->add_option("--fabric", o.fabric, "nvswitch|nvlink|pcie|ib|roce|efa|socket");
  lint->add_option("--engine", o.engines, "rollout engine in use: vllm, sglang (repeatable)");
  lint->add_option("--interfaces", o.interfaces, "the node's network interfaces, comma-separated (default: /sys/class/net)");
  lint->add_flag("--debug-run", o.debug_run, "this is a debugging run: verbose logging is not a warning");
  lint->callback([&exit_code, &global, nodes_opt, fabric_opt] {
    if (!positional_file.empty()) {
      if (!o.env_file.empty()) {
        exit_code = fail("env lint", core::Status::usage("give the env file once: as FILE or with --env-file"));
        return;
      }
      o.env_file = positional_file;
    }
    exit_code = run_lint(o, global, fabric_opt->count() > 0 || nodes_opt->count() > 0);
  });

  auto* debug = cmd->add_subcommand("debug", "print the env block for a debugging run (NCCL INFO logs, Flight Recorder)");
  debug->add_option("--nccl-version", o.nccl, "NCCL version (selects subsystem names)");
  debug->add_option("--torch-version", o.torch, "PyTorch version");
  debug->add_option("--subsys", o.subsys, "NCCL_DEBUG_SUBSYS names (comma-separated or repeated)")->delimiter(',');
  debug->add_option("--dir", o.dir, "directory for NCCL logs and Flight Recorder dumps (default /tmp)");
  debug->add_option("--format", o.format, "export | dotenv | ray");
  debug->callback([&exit_code, &global] { exit_code = run_debug(o, global); });

  auto* rec = cmd->add_subcommand("recommend", "recommended env for a scale tier and fabric");
  rec->add_option("--nodes", o.nodes, "number of nodes")->required()->check(integer_in(1, 1000000));
  auto* gpus_opt = rec->add_option("--gpus-per-node", o.gpus, "GPUs per node (default 8, or the snapshot's count)")->check(integer_in(1, 4096));
  rec->add_option("--fabric", o.fabric, "nvswitch|nvlink|pcie|ib|roce|efa|socket (required unless --from gives the node's links)");
  rec->add_option("--from", o.from, "doctor snapshot or `ncdx topo --json` output: GPUs per node and intra-node fabric");
  rec->add_option("--nccl-version", o.nccl, "target NCCL version");
  rec->add_option("--torch-version", o.torch, "target PyTorch version");
  rec->add_option("--format", o.format, "export | dotenv | ray");
  rec->callback([&exit_code, &global, gpus_opt] { exit_code = run_recommend(o, global, gpus_opt->count() > 0); });

  auto* docs = cmd->add_subcommand("docs", "print docs/ENV.md (generated from the env tables)");
  docs->callback([&exit_code] {
    std::cout << report::env_docs_markdown();
    exit_code = 0;
  });
  return cmd;
}

}  // namespace ncdx::cli
