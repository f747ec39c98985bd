// Memory knobs against model size and GPU memory, and the weight-sync bucket (verl's _generated_ppo_trainer.yaml keys).
#include <algorithm>
#include <cmath>

#include "analyze/audit/audit.h"
#include "analyze/config/config_tree.h"

namespace ncdx::analyze {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string origin_of(const AuditContext& ctx, const std::string& key) {
  auto it = ctx.cfg.origin.find(key);
  return it == ctx.cfg.origin.end() ? "" : it->second;
}

std::string gib(double bytes) { return fmt_num(std::round(bytes / kGiB * 10) / 10) + " GiB"; }

}  // namespace

void rule_gpu_util(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  const std::string key = "actor_rollout_ref.rollout.gpu_memory_utilization";
  auto util = get_number(ctx.cfg.tree, key);
  if (!util) return;
  double warn = ctx.threshold("verl.memory.gpu-util", "warn_above"), fail = ctx.threshold("verl.memory.gpu-util", "fail_above");
  AuditRow r = make_row("verl.memory.gpu-util", key, fmt_num(*util), core::Outcome::pass);
  r.origin = origin_of(ctx, key);
  r.recommended = "<= " + fmt_num(warn);
  r.risk = "> " + fmt_num(fail);
  if (*util <= 0 || *util > 1) {
    r.status = core::Outcome::fail;
    r.why = "A fraction of device memory must be in (0, 1].";
  } else if (*util > fail) {
    r.status = core::Outcome::fail;
    r.why = "The rollout engine takes " + fmt_num(*util * 100) + "% of device memory while the actor is colocated "
            "(hybrid engine): wake_up OOMs (#302 was fixed by lowering it to 0.45).";
  } else if (*util > warn) {
    r.status = core::Outcome::warn;
    r.why = "High with a colocated actor: OOM at wake_up is the usual failure (#302; #2106 advises lowering it).";
  } else {
    r.why = "Leaves room for the colocated actor.";
  }
  // Can the rollout engine hold its shard of the weights inside that fraction at all?
  if (ctx.model && ctx.model->params_b && ctx.cluster.gpu_mem_gib && r.status != core::Outcome::fail) {
    const std::string p = "actor_rollout_ref.rollout.";
    long long tp = get_int(ctx.cfg.tree, p + "tensor_model_parallel_size").value_or(1);
    long long pp = get_int(ctx.cfg.tree, p + "pipeline_model_parallel_size").value_or(1);
    long long ep = get_int(ctx.cfg.tree, p + "expert_parallel_size").value_or(1);
    double shards = static_cast<double>(std::max(tp * pp, ep));
    double weights = *ctx.model->params_b * 1e9 * 2 / shards;  // bf16
    double budget = *util * *ctx.cluster.gpu_mem_gib * kGiB;
    if (weights > budget) {
      r.status = core::Outcome::fail;
      r.why = "The rollout engine's bf16 weight shard (" + gib(weights) + " per GPU at TP*PP=" + std::to_string(tp * pp) +
              (ep > 1 ? ", EP=" + std::to_string(ep) : "") + ") exceeds its " + gib(budget) +
              " budget: no room for the KV cache. Raise TP or the fraction.";
    } else if (weights > 0.8 * budget) {
      r.status = core::Outcome::warn;
      r.why += " Weights take " + gib(weights) + " of the " + gib(budget) + " budget: little KV cache left.";
    } else {
      r.why += " Weights " + gib(weights) + " of the " + gib(budget) + " budget per GPU.";
    }
  }
  rows.push_back(std::move(r));
}

void rule_training_memory(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  AuditRow r = make_row("verl.memory.training-state", "actor training state per GPU", "", core::Outcome::skip);
  auto gpus = config_gpus(ctx);
  if (!ctx.model || !ctx.model->params_b || !ctx.cluster.gpu_mem_gib || !gpus || *gpus <= 0) {
    r.why = "Needs the model size (--model-size or the model path), the GPU memory (--gpu-mem-gib) and the GPU count.";
    rows.push_back(std::move(r));
    return;
  }
  double bpp = ctx.threshold("verl.memory.training-state", "bytes_per_param");
  double headroom = ctx.threshold("verl.memory.training-state", "headroom_fraction");
  double shards = static_cast<double>(*gpus);
  bool param_off = false, optim_off = false;
  if (ctx.strategy == knowledge::Strategy::fsdp) {
    auto fs = get_int(ctx.cfg.tree, "actor_rollout_ref.actor.fsdp_config.fsdp_size").value_or(-1);
    if (fs > 0) shards = static_cast<double>(std::min<long long>(fs, *gpus));
    param_off = get_bool(ctx.cfg.tree, "actor_rollout_ref.actor.fsdp_config.param_offload").value_or(false);
    optim_off = get_bool(ctx.cfg.tree, "actor_rollout_ref.actor.fsdp_config.optimizer_offload").value_or(false);
  } else {
    param_off = get_bool(ctx.cfg.tree, "actor_rollout_ref.actor.megatron.param_offload").value_or(false);
    optim_off = get_bool(ctx.cfg.tree, "actor_rollout_ref.actor.megatron.optimizer_offload").value_or(false);
  }
  double params = *ctx.model->params_b * 1e9;
  // Offloading moves the fp32 master + Adam moments (12 B/param) and/or the bf16 weights (2 B/param).
  double on_gpu = bpp - (optim_off ? 12 : 0) - (param_off ? 2 : 0);
  double state = params * on_gpu / shards;
  double mem = *ctx.cluster.gpu_mem_gib * kGiB;
  bool free_cache = get_bool(ctx.cfg.tree, "actor_rollout_ref.rollout.free_cache_engine").value_or(true);
  double util = get_number(ctx.cfg.tree, "actor_rollout_ref.rollout.gpu_memory_utilization").value_or(0.5);
  double budget = mem * headroom - (free_cache ? 0 : util * mem);
  r.value = gib(state) + " (" + fmt_num(on_gpu) + " B/param x " + fmt_num(*ctx.model->params_b) + "B / " + fmt_num(shards) + " GPUs" +
            (param_off || optim_off ? ", offload on" : "") + ")";
  r.recommended = "<= " + gib(budget);
  r.risk = "> " + gib(budget);
  if (state > budget) {
    r.status = core::Outcome::warn;
    r.why = "Estimated mixed-precision Adam state exceeds the usable device memory (" + fmt_num(headroom * 100) + "% of " +
            fmt_num(*ctx.cluster.gpu_mem_gib) + " GiB" + (free_cache ? "" : ", minus the rollout cache kept by free_cache_engine=False") +
            ") before activations. Enable param/optimizer offload, add GPUs, or shard further. An estimate, not a measurement.";
  } else {
    r.status = core::Outcome::pass;
    r.why = "Estimated state fits with room for activations (estimate: " + fmt_num(bpp) + " B/param, evenly sharded)." +
            (optim_off || param_off ? " Offloaded state needs host RAM: about " + gib(params * (bpp - on_gpu) / std::max(1.0, shards) *
                                                                                      std::max<double>(1, get_int(ctx.cfg.tree, "trainer.n_gpus_per_node").value_or(8))) +
                                          " per node." : "");
  }
  rows.push_back(std::move(r));
}

void rule_bucket(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  const bool new_key = ctx.verl >= core::V("0.7.1");
  const std::string key = new_key ? "actor_rollout_ref.rollout.checkpoint_engine.update_weights_bucket_megabytes"
                                  : "actor_rollout_ref.rollout.update_weights_bucket_megabytes";
  auto mb = get_number(ctx.cfg.tree, key);
  AuditRow r = make_row("verl.weight-sync.bucket", key, mb ? fmt_num(*mb) + " MB" : "unknown", core::Outcome::skip);
  r.origin = origin_of(ctx, key);
  if (!new_key) {
    r.why = "ncdx has no source on whether verl < 0.7.1 rejects a tensor larger than this bucket; not checked.";
    rows.push_back(std::move(r));
    return;
  }
  if (!mb || !ctx.model || !ctx.model->vocab || !ctx.model->hidden) {
    r.why = "Needs the bucket size and the model's vocab and hidden sizes.";
    rows.push_back(std::move(r));
    return;
  }
  double largest = static_cast<double>(*ctx.model->vocab) * *ctx.model->hidden * 2 / (1024.0 * 1024.0);  // bf16 embedding, MiB
  r.recommended = ">= " + fmt_num(std::ceil(largest)) + " MB (largest tensor: embedding " + std::to_string(*ctx.model->vocab) + "x" +
                  std::to_string(*ctx.model->hidden) + " bf16)";
  r.risk = "< largest tensor";
  if (*mb < largest) {
    r.status = core::Outcome::warn;
    r.why = "A single weight bigger than the bucket cannot be sent (\"Weight ... is too large to fit in the bucket\", Ascend FAQ); "
            "raise the bucket above the embedding size.";
  } else {
    r.status = core::Outcome::pass;
    r.why = "The largest tensor fits in one bucket.";
  }
  rows.push_back(std::move(r));
}

}  // namespace ncdx::analyze
