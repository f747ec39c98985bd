// verl.log-prob-micro-batch: verl's validate_config (check_mutually_exclusive) raises ValueError at
// start when the rollout (always) or the reference (when a reference policy is used: KL loss or KL
// in reward) sets neither log_prob_micro_batch_size nor log_prob_micro_batch_size_per_gpu, or both;
// skipped with use_dynamic_bsz (verl 0.7.1 verl/utils/config.py:141-166; verl 0.9.1
// verl/utils/config.py:155-181; verl 0.5.0 verl/trainer/ppo/ray_trainer.py:450).
#include "analyze/audit/audit.h"
#include "analyze/config/config_tree.h"

namespace ncdx::analyze {

void rule_log_prob_micro_batch(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  if (!find_path(ctx.cfg.tree, "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu")) return;  // not PPO
  if (get_bool(ctx.cfg.tree, "actor_rollout_ref.actor.use_dynamic_bsz").value_or(false)) return;
  const bool ref = get_bool(ctx.cfg.tree, "actor_rollout_ref.actor.use_kl_loss").value_or(false) ||
                   get_bool(ctx.cfg.tree, "algorithm.use_kl_in_reward").value_or(false);
  auto set = [&](const std::string& key) {
    const auto* n = find_path(ctx.cfg.tree, key);
    return n && !n->is_null();
  };
  for (const std::string name : {"actor_rollout_ref.rollout", "actor_rollout_ref.ref"}) {
    if (name == "actor_rollout_ref.ref" && !ref) continue;
    const std::string plain = name + ".log_prob_micro_batch_size", per_gpu = plain + "_per_gpu";
    bool a = set(plain), b = set(per_gpu);
    if (a != b) {
      AuditRow r = make_row("verl.log-prob-micro-batch", b ? per_gpu : plain,
                            display(*find_path(ctx.cfg.tree, b ? per_gpu : plain)), b ? core::Outcome::pass : core::Outcome::warn);
      r.origin = ctx.cfg.origin.count(b ? per_gpu : plain) ? ctx.cfg.origin.at(b ? per_gpu : plain) : "";
      r.recommended = per_gpu + "=N";
      r.risk = b ? "" : "deprecated form";
      r.why = b ? "Set, as verl's validate_config requires." : "'" + plain + "' is deprecated; verl asks for '" + per_gpu + "'.";
      rows.push_back(std::move(r));
      continue;
    }
    AuditRow r = make_row("verl.log-prob-micro-batch", per_gpu, a ? "both set" : "null", core::Outcome::fail);
    r.recommended = per_gpu + "=N (e.g. 4)";
    r.risk = "ValueError at start";
    r.why = a ? "[" + name + "] You have set both '" + plain + "' AND '" + per_gpu + "' (verl's validate_config refuses it)."
              : "[" + name + "] Please set at least one of '" + plain + "' or '" + per_gpu +
                    "' (verl's validate_config raises this ValueError when use_dynamic_bsz is off" +
                    (name == "actor_rollout_ref.ref" ? " and a reference policy is used: KL loss or KL in reward" : "") + ").";
    rows.push_back(std::move(r));
  }
}

}  // namespace ncdx::analyze
