// `ncdx audit`: audit a verl run (YAML config, run_*.sh script, Hydra overrides after `--`) plus
// its environment against the verl version, the cluster shape and the model. Logic lives in
// analyze/ (compose, rules, env lint); this file parses flags, gathers inputs and renders.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <tuple>
#include <unordered_set>

#include "analyze/audit/audit.h"
#include "analyze/audit/migrate.h"
#include "analyze/config/config_tree.h"
#include "analyze/env/lint.h"
#include "analyze/config/node_shape.h"
#include "analyze/compat/stack_versions.h"
#include "analyze/env/recommend.h"
#include "analyze/config/model_identify.h"
#include "analyze/config/verl_compose.h"
#include "cli/audit_inputs.h"
#include "cli/command.h"
#include "cli/flag_checks.h"
#include "core/json.h"
#include "core/outcome.h"
#include "core/strings.h"
#include "core/term.h"
#include "knowledge/audit_rules.h"
#include "report/audit_render.h"
#include "report/context.h"
#include "report/sanitize.h"

namespace ncdx::cli {
namespace {

int fail(const core::Status& s) { return cli::fail("audit", s); }

core::Result<std::map<std::string, double>> parse_thresholds(const std::vector<std::string>& items) {
  std::map<std::string, double> out;
  for (const auto& t : items) {
    auto eq = t.find('=');
    auto dot = t.rfind('.', eq);
    auto v = eq == std::string::npos ? std::nullopt : core::parse_double(t.substr(eq + 1));
    if (!v || dot == std::string::npos)
      return core::Status::usage("--threshold '" + t + "': expected RULE.NAME=NUMBER (e.g. verl.timeout.risky_below_s=600)");
    std::string rule = t.substr(0, dot), name = t.substr(dot + 1, eq - dot - 1);
    const auto* info = knowledge::find_audit_rule(rule);
    if (!info || !info->thresholds.count(name))
      return core::Status::usage("--threshold '" + t + "': no threshold '" + name + "' in rule '" + rule + "'");
    out[rule + "." + name] = *v;
  }
  return out;
}

// `ncdx audit run.sh` / `ncdx audit config.yaml`: a positional word without '=' that is not a
// deletion (~key) names the script or the config.
AuditFlags take_positional_paths(AuditFlags f) {
  std::vector<std::string> rest;
  for (const auto& o : f.overrides) {
    bool path_like = o.find('=') == std::string::npos && !o.empty() && o[0] != '~';
    auto ends = [&](std::string_view suf) {
      return o.size() >= suf.size() && o.compare(o.size() - suf.size(), suf.size(), suf) == 0;
    };
    if (path_like && (ends(".yaml") || ends(".yml")) && f.config.empty()) f.config = o;
    else if (path_like && f.script.empty()) f.script = o;
    else rest.push_back(o);
  }
  f.overrides = rest;
  return f;
}

// The config the script's entry point composes: `-m MODULE` of the wheel, `--config-name` beside it.
// nullopt with the reason when ncdx does not know it (exit 1: never audited as PPO).
std::optional<std::string> entry_config(const knowledge::VerlFacts& facts, const analyze::RunScript& rs,
                                        const core::Version& v, std::string& why) {
  std::string module = rs.module.empty() ? "verl.trainer.main_ppo" : rs.module;
  auto cfg = facts.entry_config(module, v);
  std::string at = rs.file + (rs.entry_line ? ":" + std::to_string(rs.entry_line) : "");
  if (!cfg) {
    auto m = facts.module_versions(module);
    why = at + ": '-m " + module + "' is not an entry point of verl " + v.str() +
          (m ? " (it is one in verl " + facts.span(m) + "; pass --verl-version)" : " (no verl release " +
               facts.span(~knowledge::VersionMask(0) >> (32 - facts.versions().size())) + " has it)") +
          "; ncdx audits verl's own entry points only";
    return std::nullopt;
  }
  if (rs.config_name) {
    std::string name = *rs.config_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".yaml") == 0) name.resize(name.size() - 5);
    std::string id = cfg->substr(0, cfg->rfind('/') + 1) + name;
    if (!rs.config_path && !facts.has_config(id, v)) {
      why = at + ": --config-name " + *rs.config_name + " is not a config of verl " + v.str() + " beside " + *cfg;
      return std::nullopt;
    }
    if (facts.has_config(id, v)) return id;
  }
  return cfg;
}

int run(const AuditFlags& flags, const GlobalOptions& g) {
  const AuditFlags f = take_positional_paths(flags);
  if (f.config.empty() && f.script.empty() && f.overrides.empty() && f.env_file.empty())
    return fail(core::Status::usage(
        "nothing to audit: give a run.sh or config.yaml (or --script/--config), overrides after --, or --env-file"));
  auto schema = knowledge::VerlSchema::get();
  if (!schema) return fail(schema.status());
  bool assumed = f.verl.empty();
  auto verl = assumed ? std::optional<core::Version>((*schema)->latest()) : core::Version::parse(f.verl);
  if (!verl) return fail(core::Status::usage("--verl-version '" + f.verl + "': expected a version like 0.7.1"));
  if (auto st = (*schema)->require_release(*verl, "--verl-version " + f.verl); !st.is_ok()) return fail(st);
  auto nccl = version_flag("--nccl-version", f.nccl);
  if (!nccl) return fail(nccl.status());
  auto torch = version_flag("--torch-version", f.torch);
  if (!torch) return fail(torch.status());
  if (!f.fabric.empty()) {
    bool ok = false;
    for (const auto& x : analyze::fabrics()) ok |= x == f.fabric;
    if (!ok) return fail(core::Status::usage("--fabric must be one of " + core::join(analyze::fabrics(), "|")));
  }
  if (f.format != "text" && f.format != "md" && f.format != "json")
    return fail(core::Status::usage("--format must be text, md or json"));
  auto thresholds = parse_thresholds(f.thresholds);
  if (!thresholds) return fail(thresholds.status());

  auto in = load_audit_inputs(f);
  if (!in) return fail(in.status());
  // Auditing this machine's job (process env in play): take missing versions from the machine, as
  // `ncdx compat` finds them, and apply NCCL's config files (NCCL_CONF_FILE, ~/.nccl.conf,
  // /etc/nccl.conf) beneath the env the way NCCL does.
  std::optional<std::string> verl_from, nccl_from, torch_from;
  if (!f.no_process_env) {
    core::FileSystem fs(g.root);
    auto found = analyze::detect_versions(fs);
    if (!nccl->has_value() && found.nccl.version) *nccl = found.nccl.version, nccl_from = found.nccl.source;
    if (!torch->has_value() && found.torch.version) *torch = found.torch.version, torch_from = found.torch.source;
    if (assumed && found.verl.version) verl = found.verl.version, assumed = false, verl_from = found.verl.source;
    std::optional<std::string> home;
    for (const auto& e : in->env)
      if (e.name == "HOME") home = e.value;
    for (const auto& [what, from, v] : {std::tuple{"verl", verl_from, verl}, std::tuple{"NCCL", nccl_from, *nccl},
                                          std::tuple{"PyTorch", torch_from, *torch}})
      if (from && v) std::fprintf(stderr, "ncdx audit: %s %s detected (%s)\n", what, v->str().c_str(), from->c_str());
    auto eff = analyze::effective_env(in->env, fs, home, *nccl);
    // What the config files add. A set of the names already there, not a scan per name: an env
    // file at the execve limit holds ~300 000 (issue #12).
    std::unordered_set<std::string_view> have;
    for (const auto& e : in->env) have.insert(e.name);
    std::vector<analyze::EnvSetting> added;
    for (const auto& kv : eff.env)
      if (!have.count(kv.first)) added.push_back({kv.first, kv.second, eff.origin.get(kv.first)});
    in->env.insert(in->env.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
  }
  std::optional<nlohmann::json> yaml_tree;
  analyze::ComposeInput ci;
  ci.yaml_text = in->yaml_text;
  ci.yaml_name = f.config;
  ci.overrides = in->overrides;
  ci.verl = *verl;
  ci.bare = f.bare;
  std::optional<std::string> config_name = in->script ? in->script->config_name : std::nullopt;
  ci.strategy = analyze::detect_strategy(config_name, in->overrides, std::nullopt);
  if (in->script && !f.bare) {
    std::string why;
    auto cfg = entry_config((*schema)->facts(), *in->script, *verl, why);
    if (!cfg) {
      std::fprintf(stderr, "ncdx audit: %s\n", why.c_str());
      return 1;
    }
    ci.config = *cfg;
  }
  if (ci.config.empty()) ci.config = knowledge::VerlSchema::config_for(ci.strategy);
  auto composed = analyze::compose_verl(ci);
  if (!composed) return fail(composed.status());
  if (composed->strategy != ci.strategy && !f.bare && ci.config == knowledge::kFsdpConfig &&
      ci.yaml_text && composed->groups.empty()) {
    // The YAML says actor strategy megatron: it is a Megatron config (ppo_megatron_trainer's defaults).
    ci.config = knowledge::kMegatronConfig;
    composed = analyze::compose_verl(ci);
    if (!composed) return fail(composed.status());
  }
  ci.strategy = composed->strategy;
  // Hydra raises on the first bad override: no config to print (and --bare is Hydra's compose alone).
  if ((f.bare || f.print) && !composed->applied.issues.empty()) {
    const auto& is = composed->applied.issues.front();
    return fail(core::Status::bad_input(is.origin + ": " + is.message));
  }
  if (f.print) {
    if (g.json || f.format == "json")
      std::cout << core::dump_json({{"schema", "ncdx.audit-config/1"}, {"config", composed->tree}});
    else
      std::cout << report::sanitize_text(report::to_yaml_text(composed->tree));
    return 0;
  }

  // Model, env, rules.
  // The model path the user gave (script, YAML or command line). verl's released default
  // (~/models/deepseek-llm-7b-chat in ppo_trainer.yaml) is a placeholder, not the user's model: a
  // size guessed from it would judge the run against a model nobody named.
  const auto mp_origin = composed->origin.find("actor_rollout_ref.model.path");
  const bool mp_default = mp_origin == composed->origin.end() || mp_origin->second.rfind("default", 0) == 0;
  auto model = analyze::identify_model(
      f.model_size, mp_default ? std::string() : analyze::get_string(composed->tree, "actor_rollout_ref.model.path").value_or(""));
  if (!model) return fail(model.status());
  analyze::AuditContext ctx{*composed, **schema, *verl, assumed, ci.strategy, *torch, *nccl, {}, model->info, model->from,
                            in->script ? &*in->script : nullptr, in->overrides, {}, *thresholds};
  // --from a doctor snapshot/report or topo JSON: the node's GPU count and intra-node fabric where
  // no flag gives them.
  std::optional<int> gpus_per_node = f.gpus_per_node;
  std::string fabric = f.fabric;
  if (!f.from.empty()) {
    auto shape = analyze::node_shape_from_file(f.from);
    if (!shape) return fail(shape.status());
    if (!gpus_per_node && shape->gpus > 0) gpus_per_node = shape->gpus;
    if (fabric.empty() && shape->intra) fabric = *shape->intra;
  }
  ctx.cluster = {f.nodes, gpus_per_node, fabric.empty() ? std::nullopt : std::optional<std::string>(fabric), f.gpu_mem_gib};
  for (const auto& e : in->env) ctx.env[e.name] = e.value;
  // --env-file alone: the env is what is audited (no verl config was given to judge).
  const bool env_only = f.config.empty() && f.script.empty() && f.overrides.empty();
  auto rows = env_only ? std::vector<analyze::AuditRow>{} : analyze::run_audit(ctx);

  analyze::EnvLintInput li;
  for (const auto& e : in->env) {
    li.env[e.name] = e.value;
    li.origin.set(e.name, e.origin);
  }
  li.nccl = *nccl;
  li.torch = *torch;
  if (f.nodes || gpus_per_node || !fabric.empty())
    li.cluster = analyze::shape_of({f.nodes.value_or(1), gpus_per_node.value_or(8), fabric.empty() ? "nvswitch" : fabric,
                                    std::nullopt, std::nullopt});
  if (auto name = analyze::get_string(composed->tree, "actor_rollout_ref.rollout.name")) li.engines.push_back(*name);
  auto env_rows = analyze::lint_env(li);
  for (const auto& e : env_rows)
    rows.push_back({e.parameter, e.value, e.recommended, e.risk, e.status, e.why, e.source, e.rule, e.origin});

  if (f.migrate) {
    analyze::MigrateInput mi;
    mi.overrides = in->overrides;
    for (const auto& e : in->env)
      if (e.origin != "env") mi.env.push_back({e.name, e.value});
    mi.env_rows = env_rows;
    mi.verl = *verl;
    mi.strategy = ci.strategy;
    if (in->script) {
      mi.config_path = in->script->config_path;
      mi.config_name = in->script->config_name;
      if (!in->script->module.empty()) mi.module = in->script->module;
    }
    std::cout << report::sanitize_text(analyze::render_migration(mi, **schema));
    return 0;
  }

  std::string verl_desc = "verl " + verl->str() + (assumed ? " (assumed: newest known; pass --verl-version)" : "") + ", " +
                          composed->config + ".yaml" + (composed->groups.empty() ? "" : " with " + core::join(composed->groups, " ")) +
                          " (" + knowledge::to_string(ci.strategy) + ")";
  std::string model_desc = model->info ? "model " + model->info->id +
                                             (model->info->params_b ? " (" + analyze::fmt_num(*model->info->params_b) + "B)" : "") +
                                             " from " + model->from
                                       : "model unknown (pass --model-size or a model path)";
  std::vector<std::string> header = {"ncdx audit: " + verl_desc, model_desc};
  if (f.nodes || gpus_per_node)
    header.push_back("cluster: " + (f.nodes ? std::to_string(*f.nodes) : std::string("?")) + " node(s) x " +
                     (gpus_per_node ? std::to_string(*gpus_per_node) : std::string("?")) + " GPUs" +
                     (fabric.empty() ? "" : ", " + fabric) + (f.from.empty() ? "" : " (from " + f.from + ")"));

  if (g.json || f.format == "json") {
    nlohmann::json seen = {{"nccl", nccl->has_value() ? nlohmann::json((*nccl)->str()) : nlohmann::json(nullptr)}};
    auto context = report::make_context(seen, !g.no_timestamps);
    context["verl_version"] = verl->str();
    context["verl_version_assumed"] = assumed;
    context["torch_version"] = torch->has_value() ? nlohmann::json((*torch)->str()) : nlohmann::json(nullptr);
    context["strategy"] = knowledge::to_string(ci.strategy);
    context["verl_config"] = composed->config;
    context["config_groups"] = composed->groups;
    context["cluster"] = {{"nodes", core::opt_json(f.nodes)}, {"gpus_per_node", core::opt_json(f.gpus_per_node)},
                          {"fabric", f.fabric.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.fabric)},
                          {"gpu_mem_gib", core::opt_json(f.gpu_mem_gib)}};
    nlohmann::json m = nullptr;
    if (model->info)
      m = {{"id", model->info->id}, {"params_b", core::opt_json(model->info->params_b)}, {"heads", core::opt_json(model->info->heads)},
           {"kv_heads", core::opt_json(model->info->kv_heads)}, {"layers", core::opt_json(model->info->layers)},
           {"hidden", core::opt_json(model->info->hidden)}, {"vocab", core::opt_json(model->info->vocab)}, {"from", model->from},
           {"source", model->info->source}};
    context["model"] = m;
    context["inputs"] = {{"config", f.config.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.config)},
                         {"script", f.script.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.script)},
                         {"env_file", f.env_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.env_file)},
                         {"overrides", in->overrides.size()}};
    context["keys_not_in_schema"] = composed->applied.unverified;
    std::cout << core::dump_json(report::audit_json(rows, context));
  } else if (f.format == "md") {
    std::cout << report::sanitize_text(report::render_audit_md(rows, header));
  } else {
    std::cout << report::sanitize_text(report::render_audit_text(rows, header, core::color_enabled(stdout) && !g.no_color, core::output_columns(stdout)), core::color_enabled(stdout) && !g.no_color);
  }
  return core::exit_code_of(rows);
}

}  // namespace

CLI::App* add_audit(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("audit");
  static AuditFlags f;
  cmd->add_option("--config", f.config, "verl YAML config (full _generated_ppo_trainer.yaml style or partial)");
  cmd->add_option("--script", f.script, "verl launch script (run_*.sh)");
  cmd->add_option("--verl-version", f.verl, "verl version the run uses (default: newest known, flagged as assumed)");
  cmd->add_option("--nccl-version", f.nccl, "NCCL version (for env rows)");
  cmd->add_option("--torch-version", f.torch, "PyTorch version (timeouts, env rows)");
  cmd->add_option("--nodes", f.nodes, "nodes available")->check(integer_in(1, 1000000));
  cmd->add_option("--gpus-per-node", f.gpus_per_node, "GPUs per node available")->check(integer_in(1, 4096));
  cmd->add_option("--fabric", f.fabric, "nvswitch|nvlink|pcie|ib|roce|efa|socket");
  cmd->add_option("--from", f.from, "a doctor snapshot/report or `ncdx topo --json` output: GPUs per node and intra-node fabric");
  cmd->add_option("--gpu-mem-gib", f.gpu_mem_gib, "memory of one GPU in GiB (memory rules)")->check(number_in(0.001, 1e6));
  cmd->add_option("--model-size", f.model_size, "model size, e.g. 7B (otherwise inferred from the model path)");
  cmd->add_option("--env-file", f.env_file, "env file (KEY=VALUE lines); also the script's outer environment");
  cmd->add_flag("--no-process-env", f.no_process_env, "leave the process environment out of the env rows");
  cmd->add_option("--format", f.format, "text|md|json (--json is the same as --format json)");
  cmd->add_option("--threshold", f.thresholds, "override a rule threshold: RULE.NAME=VALUE (see audit_rules.yaml)");
  cmd->add_flag("--print", f.print, "print the composed config (YAML; JSON with --json) instead of the audit");
  cmd->add_flag("--migrate", f.migrate, "print the overrides and env rewritten for --verl-version");
  cmd->add_flag("--bare", f.bare, "compose the YAML + overrides only (no verl schema defaults; strict Hydra)");
  cmd->add_option("overrides", f.overrides, "a run.sh or config.yaml to audit, and/or Hydra overrides (after --)");
  cmd->callback([&global, &exit_code] { exit_code = run(f, global); });
  return cmd;
}

}  // namespace ncdx::cli
