// GPU counts, parallel-group placement and verl's own divisibility checks (verl's trainer config
// _generated_ppo_trainer.yaml and its message texts).
#include <sstream>

#include "analyze/audit/audit.h"
#include "analyze/config/config_tree.h"
#include "core/strings.h"
#include "knowledge/audit_rules.h"

namespace ncdx::analyze {
namespace {

std::string origin_of(const AuditContext& ctx, const std::string& key) {
  auto it = ctx.cfg.origin.find(key);
  return it == ctx.cfg.origin.end() ? "" : it->second;
}

long long int_or(const AuditContext& ctx, const std::string& key, long long dflt) {
  return get_int(ctx.cfg.tree, key).value_or(dflt);
}

std::string subst(std::string msg, const std::vector<std::pair<std::string, std::string>>& vals) {
  for (const auto& [k, v] : vals) {
    std::string pat = "{" + k + "}";
    for (auto p = msg.find(pat); p != std::string::npos; p = msg.find(pat)) msg.replace(p, pat.size(), v);
  }
  return msg;
}

std::string message(const std::string& rule, const std::vector<std::pair<std::string, std::string>>& vals) {
  const auto* info = knowledge::find_audit_rule(rule);
  return info ? subst(info->message, vals) : std::string();
}

struct Mp {
  long long tp = 1, pp = 1, cp = 1;
};
Mp megatron_mp(const AuditContext& ctx) {
  const std::string p = "actor_rollout_ref.actor.megatron.";
  return {int_or(ctx, p + "tensor_model_parallel_size", 1), int_or(ctx, p + "pipeline_model_parallel_size", 1),
          int_or(ctx, p + "context_parallel_size", 1)};
}

}  // namespace

void rule_gpus(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  auto n_nodes = get_int(ctx.cfg.tree, "trainer.nnodes");
  auto n_gpn = get_int(ctx.cfg.tree, "trainer.n_gpus_per_node");
  auto desired = config_gpus(ctx);
  AuditRow r = make_row("verl.resources.gpus", "trainer.nnodes x trainer.n_gpus_per_node",
                        desired ? std::to_string(*n_nodes) + " x " + std::to_string(*n_gpn) + " = " + std::to_string(*desired)
                                : "unknown",
                        core::Outcome::skip);
  r.origin = origin_of(ctx, "trainer.n_gpus_per_node");
  long long per_node = ctx.cluster.gpus_per_node.value_or(-1);  // -1: unknown
  std::string visible_note;
  if (auto it = ctx.env.find("CUDA_VISIBLE_DEVICES"); it != ctx.env.end()) {
    long long n = 0;
    for (auto part : core::split(it->second, ','))
      if (!core::trim(part).empty()) ++n;
    if (per_node < 0 || n < per_node) {
      per_node = n;
      visible_note = " (CUDA_VISIBLE_DEVICES=" + it->second + " leaves " + std::to_string(n) + " per node)";
    }
  }
  if (!desired) {
    r.why = "trainer.nnodes or trainer.n_gpus_per_node is not statically known.";
    rows.push_back(std::move(r));
    return;
  }
  if (per_node < 0) {
    r.why = "GPUs available unknown: pass --nodes and --gpus-per-node to check.";
    rows.push_back(std::move(r));
    return;
  }
  long long nodes = ctx.cluster.nodes.value_or(*n_nodes);
  long long available = nodes * per_node;
  r.recommended = "<= " + std::to_string(available) + " available" + visible_note;
  r.risk = "> available";
  if (*desired > available || *n_gpn > per_node) {
    r.status = core::Outcome::fail;
    r.why = message("verl.resources.gpus", {{"available", std::to_string(available) + ".0"}, {"desired", std::to_string(*desired)}}) +
            " (verl/single_controller/ray/base.py): the resource pool cannot be placed" + visible_note +
            (*n_gpn > per_node ? "; trainer.n_gpus_per_node exceeds the GPUs of one node" : "") + ".";
  } else {
    r.status = core::Outcome::pass;
    r.why = "The resource pool fits the " + std::to_string(available) + " GPUs available.";
  }
  rows.push_back(std::move(r));
}

void rule_within_node(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  auto gpn = ctx.cluster.gpus_per_node ? std::optional<long long>(*ctx.cluster.gpus_per_node)
                                       : get_int(ctx.cfg.tree, "trainer.n_gpus_per_node");
  auto nodes = ctx.cluster.nodes ? std::optional<long long>(*ctx.cluster.nodes) : get_int(ctx.cfg.tree, "trainer.nnodes");
  std::vector<std::string> keys = {"actor_rollout_ref.rollout.tensor_model_parallel_size"};
  if (ctx.strategy == knowledge::Strategy::megatron) {
    keys.push_back("actor_rollout_ref.actor.megatron.tensor_model_parallel_size");
    keys.push_back("actor_rollout_ref.actor.megatron.context_parallel_size");
  } else {
    keys.push_back("actor_rollout_ref.actor.ulysses_sequence_parallel_size");
  }
  for (const auto& k : keys) {
    auto v = get_int(ctx.cfg.tree, k);
    if (!v) continue;
    if (*v <= 1 && k.find("rollout") == std::string::npos) continue;
    AuditRow r = make_row("verl.parallel.within-node", k, std::to_string(*v), core::Outcome::pass);
    r.origin = origin_of(ctx, k);
    if (!gpn) {
      r.status = core::Outcome::skip;
      r.why = "GPUs per node unknown.";
      rows.push_back(std::move(r));
      continue;
    }
    r.recommended = "<= " + std::to_string(*gpn) + " (GPUs per node)";
    r.risk = "> " + std::to_string(*gpn);
    if (*v > *gpn) {
      r.status = (nodes && *nodes <= 1) ? core::Outcome::fail : core::Outcome::warn;
      std::string fabric = ctx.cluster.fabric ? " over " + *ctx.cluster.fabric : "";
      r.why = "A group of " + std::to_string(*v) + " GPUs spans nodes of " + std::to_string(*gpn) +
              ": its per-layer collectives run on the inter-node network" + fabric +
              ". Rollout TP=16 across nodes fails in #4373 (DistStoreError) and times out in #2995; TP=8 within a node works.";
      if (nodes && *nodes <= 1) r.why += " With one node there are not enough GPUs for the group at all.";
    } else {
      r.why = "The group stays within one node (NVLink/PCIe, not the network).";
    }
    rows.push_back(std::move(r));
  }
}

void rule_divisible_mp(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  if (ctx.strategy != knowledge::Strategy::megatron) return;
  auto n = config_gpus(ctx);
  if (!n) return;
  Mp mp = megatron_mp(ctx);
  long long mps = mp.tp * mp.pp;
  AuditRow r = make_row("verl.divisible.model-parallel", "n_gpus % (TP*PP*CP)",
                        std::to_string(*n) + " % (" + std::to_string(mp.tp) + "*" + std::to_string(mp.pp) + "*" +
                            std::to_string(mp.cp) + ")",
                        core::Outcome::pass);
  r.recommended = "0";
  if (mps * mp.cp <= 0 || *n % (mps * mp.cp) != 0) {
    r.status = core::Outcome::fail;
    r.risk = "validate_config assertion";
    r.why = message("verl.divisible.model-parallel",
                    {{"n_gpus", std::to_string(*n)}, {"model_parallel_size", std::to_string(mps)}, {"cp", std::to_string(mp.cp)}}) +
            " (verl/utils/config.py::validate_config).";
  } else {
    r.why = "Megatron data-parallel size = " + std::to_string(*n / (mps * mp.cp)) + ".";
  }
  rows.push_back(std::move(r));
}

void rule_divisible_rollout(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  auto world = config_gpus(ctx);
  if (!world) return;
  const std::string p = "actor_rollout_ref.rollout.";
  long long tp = int_or(ctx, p + "tensor_model_parallel_size", 1), dp = int_or(ctx, p + "data_parallel_size", 1),
            pp = int_or(ctx, p + "pipeline_model_parallel_size", 1);
  long long infer = tp * dp * pp;
  AuditRow r = make_row("verl.divisible.rollout", "rollout world % (rollout TP*DP*PP)",
                        std::to_string(*world) + " % (" + std::to_string(tp) + "*" + std::to_string(dp) + "*" + std::to_string(pp) + ")",
                        core::Outcome::pass);
  r.recommended = "0";
  if (infer <= 0 || *world % infer != 0 || infer > *world) {
    r.status = core::Outcome::fail;
    r.risk = "worker assertion at start";
    r.why = message("verl.divisible.rollout", {{"world_size", std::to_string(*world)}, {"infer_world_size", std::to_string(infer)}}) +
            (infer > *world ? " (the rollout group is larger than the world)" : "") + " (fsdp_workers.py / megatron_workers.py / engine_workers.py).";
  } else {
    r.why = std::to_string(*world / infer) + " rollout replica(s) of " + std::to_string(infer) + " GPUs.";
  }
  rows.push_back(std::move(r));
}

void rule_divisible_batch(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  if (get_bool(ctx.cfg.tree, "actor_rollout_ref.actor.use_dynamic_bsz").value_or(false)) return;
  auto bs = get_int(ctx.cfg.tree, "data.train_batch_size");
  auto n = get_int(ctx.cfg.tree, "actor_rollout_ref.rollout.n");
  auto gpus = config_gpus(ctx);
  if (!bs || !n || !gpus) return;
  long long real = *bs * *n, minimal = *gpus;
  std::string how = "n_gpus";
  if (ctx.strategy == knowledge::Strategy::megatron) {
    Mp mp = megatron_mp(ctx);
    auto micro = get_int(ctx.cfg.tree, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu");
    long long denom = mp.tp * mp.pp * mp.cp;
    if (!micro || denom <= 0 || *gpus % denom != 0) return;  // reported by the model-parallel rule
    minimal = (*gpus / denom) * *micro;
    how = "megatron_dp * ppo_micro_batch_size_per_gpu";
  }
  AuditRow r = make_row("verl.divisible.batch", "train_batch_size x rollout.n",
                        std::to_string(*bs) + " x " + std::to_string(*n) + " = " + std::to_string(real), core::Outcome::pass);
  r.origin = origin_of(ctx, "data.train_batch_size");
  r.recommended = "a multiple of " + std::to_string(minimal) + " (" + how + ")";
  if (minimal <= 0 || real % minimal != 0) {
    r.status = core::Outcome::fail;
    r.risk = "validate_config assertion";
    r.why = message("verl.divisible.batch", {{"real", std::to_string(real)}, {"minimal", std::to_string(minimal)}}) +
            " (verl/utils/config.py::validate_config, use_dynamic_bsz=False).";
  } else {
    r.why = "Divisible by the minimal batch (" + how + " = " + std::to_string(minimal) + ").";
  }
  rows.push_back(std::move(r));
}

void rule_mini_batch(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  auto bs = get_int(ctx.cfg.tree, "data.train_batch_size");
  auto mini = get_int(ctx.cfg.tree, "actor_rollout_ref.actor.ppo_mini_batch_size");
  auto n = get_int(ctx.cfg.tree, "actor_rollout_ref.rollout.n");
  auto gpus = config_gpus(ctx);
  if (!bs || !mini || !n || !gpus) return;
  long long shards = *gpus;
  if (ctx.strategy == knowledge::Strategy::megatron) {
    Mp mp = megatron_mp(ctx);
    long long d = mp.tp * mp.pp * mp.cp;
    if (d <= 0 || *gpus % d) return;
    shards = *gpus / d;
  } else {
    long long sp = int_or(ctx, "actor_rollout_ref.actor.ulysses_sequence_parallel_size", 1);
    if (sp <= 0 || *gpus % sp) return;
    shards = *gpus / sp;
  }
  AuditRow r = make_row("verl.divisible.mini-batch", "actor_rollout_ref.actor.ppo_mini_batch_size", std::to_string(*mini), core::Outcome::pass);
  r.origin = origin_of(ctx, "actor_rollout_ref.actor.ppo_mini_batch_size");
  r.recommended = "<= train_batch_size (" + std::to_string(*bs) + ")";
  auto micro = get_int(ctx.cfg.tree, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu");
  long long total = *mini * *n;
  if (*mini > *bs) {
    r.status = core::Outcome::fail;
    r.risk = "config check fails";
    r.why = "train_batch_size (" + std::to_string(*bs) + ") must be >= actor.ppo_mini_batch_size (" + std::to_string(*mini) + ").";
  } else if (total % shards != 0 || total / shards == 0) {
    r.status = core::Outcome::fail;
    r.risk = "worker assertion";
    r.why = "ppo_mini_batch_size x rollout.n = " + std::to_string(total) + " is not divisible over " + std::to_string(shards) +
            " data-parallel ranks; the per-GPU mini batch must be a positive integer (fsdp_workers normalisation).";
  } else if (micro && *micro > 0 && (total / shards) % *micro != 0) {
    r.status = core::Outcome::fail;
    r.risk = "actor assertion";
    r.why = "ppo_mini_batch_size (" + std::to_string(total / shards) + " per GPU after normalisation) must be divisible by "
            "ppo_micro_batch_size_per_gpu (" + std::to_string(*micro) + ") (actor.py).";
  } else {
    r.why = std::to_string(total / shards) + " samples per GPU per mini batch.";
  }
  rows.push_back(std::move(r));
}

void rule_ulysses_heads(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  for (const std::string k : {"actor_rollout_ref.actor.ulysses_sequence_parallel_size",
                              "actor_rollout_ref.ref.ulysses_sequence_parallel_size"}) {
    auto sp = get_int(ctx.cfg.tree, k);
    if (!sp || *sp <= 1) continue;
    AuditRow r = make_row("verl.divisible.ulysses-heads", k, std::to_string(*sp), core::Outcome::pass);
    r.origin = origin_of(ctx, k);
    if (!ctx.model || !ctx.model->heads) {
      r.status = core::Outcome::skip;
      r.why = "Attention heads unknown: pass --model-size with a known model, or a local model path with config.json.";
      rows.push_back(std::move(r));
      continue;
    }
    int heads = *ctx.model->heads;
    r.recommended = "a divisor of " + std::to_string(heads) + " heads";
    if (heads % *sp != 0) {
      r.status = core::Outcome::fail;
      r.risk = "assertion at start";
      r.why = "num_heads (" + std::to_string(heads) + ") must be divisible by ulysses_sequence_parallel_size (" +
              std::to_string(*sp) + ") (verl/utils/ulysses.py, monkey_patch.py); model " + ctx.model->id + ".";
    } else {
      r.why = std::to_string(heads) + " heads / " + std::to_string(*sp) + " = " + std::to_string(heads / *sp) + " per rank (" + ctx.model->id + ").";
    }
    rows.push_back(std::move(r));
  }
}

}  // namespace ncdx::analyze
