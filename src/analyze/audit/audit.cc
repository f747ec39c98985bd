#include "analyze/audit/audit.h"

#include <set>

#include <cmath>
#include <cstdio>

#include "analyze/config/config_tree.h"
#include "knowledge/audit_rules.h"

namespace ncdx::analyze {

// Rule entry points live in audit_rules_*.cc.
void rule_keys(const AuditContext&, std::vector<AuditRow>&);
void rule_script(const AuditContext&, std::vector<AuditRow>&);
void rule_backend(const AuditContext&, std::vector<AuditRow>&);
void rule_timeout(const AuditContext&, std::vector<AuditRow>&);
void rule_rollout_name(const AuditContext&, std::vector<AuditRow>&);
void rule_gpus(const AuditContext&, std::vector<AuditRow>&);
void rule_within_node(const AuditContext&, std::vector<AuditRow>&);
void rule_divisible_mp(const AuditContext&, std::vector<AuditRow>&);
void rule_divisible_rollout(const AuditContext&, std::vector<AuditRow>&);
void rule_divisible_batch(const AuditContext&, std::vector<AuditRow>&);
void rule_mini_batch(const AuditContext&, std::vector<AuditRow>&);
void rule_ulysses_heads(const AuditContext&, std::vector<AuditRow>&);
void rule_gpu_util(const AuditContext&, std::vector<AuditRow>&);
void rule_training_memory(const AuditContext&, std::vector<AuditRow>&);
void rule_bucket(const AuditContext&, std::vector<AuditRow>&);
void rule_timeline(const AuditContext&, std::vector<AuditRow>&);
void rule_log_prob_micro_batch(const AuditContext&, std::vector<AuditRow>&);

const std::vector<AuditRuleDef>& audit_rule_registry() {
  static const std::vector<AuditRuleDef> r = {
      {"verl.keys", rule_keys},
      {"script", rule_script},
      {"verl.backend", rule_backend},
      {"verl.timeout", rule_timeout},
      {"verl.rollout.name", rule_rollout_name},
      {"verl.resources.gpus", rule_gpus},
      {"verl.parallel.within-node", rule_within_node},
      {"verl.divisible.model-parallel", rule_divisible_mp},
      {"verl.divisible.rollout", rule_divisible_rollout},
      {"verl.divisible.batch", rule_divisible_batch},
      {"verl.divisible.mini-batch", rule_mini_batch},
      {"verl.log-prob-micro-batch", rule_log_prob_micro_batch},
      {"verl.divisible.ulysses-heads", rule_ulysses_heads},
      {"verl.memory.gpu-util", rule_gpu_util},
      {"verl.memory.training-state", rule_training_memory},
      {"verl.weight-sync.bucket", rule_bucket},
      {"verl.ray.timeline", rule_timeline},
  };
  return r;
}

double AuditContext::threshold(const std::string& rule, const std::string& name) const {
  auto it = thresholds.find(rule + "." + name);
  if (it != thresholds.end()) return it->second;
  if (const auto* info = knowledge::find_audit_rule(rule)) {
    auto t = info->thresholds.find(name);
    if (t != info->thresholds.end()) return t->second;
  }
  return std::nan("");
}

std::vector<AuditRow> run_audit(const AuditContext& ctx) {
  std::vector<AuditRow> rows;
  // SFT, generation and eval configs (verl_entry_points.tsv) have no actor_rollout_ref: the PPO
  // rules (rollout, batch, timeout, weight sync) have nothing to judge there. On sft_trainer they
  // reported "8 rollout replicas" and a timeout "0.7.0 does not read".
  const bool ppo = ctx.cfg.tree.is_object() && ctx.cfg.tree.contains("actor_rollout_ref");
  static const std::set<std::string> any_config = {"verl.keys", "script", "verl.backend", "verl.resources.gpus"};
  const auto& registry = audit_rule_registry();
  std::vector<std::vector<AuditRow>> by_rule(registry.size());
  std::set<std::string> judged;
  std::size_t script_at = registry.size();
  for (std::size_t i = 0; i < registry.size(); ++i) {
    const auto& r = registry[i];
    if (!(ppo || ctx.cfg.config.empty() || any_config.count(r.id))) continue;
    if (std::string_view(r.id) == "script") { script_at = i; continue; }
    // verl.keys reads every override to say whether it exists; that judges no value.
    if (std::string_view(r.id) == "verl.keys") { r.run(ctx, by_rule[i]); continue; }
    KeyReads reads(judged);
    r.run(ctx, by_rule[i]);
  }
  if (script_at < registry.size()) {
    AuditContext with_reads = ctx;
    with_reads.judged = &judged;
    registry[script_at].run(with_reads, by_rule[script_at]);
  }
  for (auto& v : by_rule) rows.insert(rows.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
  return rows;
}

bool AuditContext::is_judged(const std::string& key) const {
  if (!judged) return true;  // not known: keep the warning
  std::string k = key;
  while (!k.empty() && (k[0] == '+' || k[0] == '~')) k.erase(0, 1);
  // A rule that reads the key, a key below it (a rule reading a whole section) or one above it.
  auto it = judged->lower_bound(k);
  if (it != judged->end() && (*it == k || it->rfind(k + ".", 0) == 0)) return true;
  for (std::size_t dot = k.rfind('.'); dot != std::string::npos; dot = k.rfind('.', dot - 1)) {
    if (judged->count(k.substr(0, dot))) return true;
    if (dot == 0) break;
  }
  return false;
}

nlohmann::json to_json(const AuditRow& r) {
  auto opt = [](const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); };
  return {{"parameter", r.parameter}, {"value", opt(r.value)},   {"recommended", opt(r.recommended)},
          {"risk", opt(r.risk)},      {"status", core::to_string(r.status)}, {"why", r.why},
          {"source", r.source},       {"rule", r.rule},           {"origin", opt(r.origin)}};
}

AuditRow make_row(const std::string& rule, std::string parameter, std::string value, core::Outcome status) {
  AuditRow r;
  r.rule = rule;
  r.parameter = std::move(parameter);
  r.value = std::move(value);
  r.status = status;
  if (const auto* info = knowledge::find_audit_rule(rule)) r.source = info->source;
  return r;
}

std::string fmt_num(double v) {
  if (std::isnan(v)) return "?";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::optional<long long> config_gpus(const AuditContext& ctx) {
  auto n = get_int(ctx.cfg.tree, "trainer.nnodes");
  auto g = get_int(ctx.cfg.tree, "trainer.n_gpus_per_node");
  if (!n || !g) return std::nullopt;
  return *n * *g;
}

}  // namespace ncdx::analyze
