// verl.timeout: the effective process-group timeout for this verl version and worker type, against
// the (overridable) size tiers. Who reads nccl_timeout per version: verl_schema.yaml (verl
// 0.7.1 verl/workers/fsdp_workers.py:162; no reader from 0.8.0); PyTorch 2.15.0
// torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp:165 (torch's default is 10 min for NCCL process groups).
#include <cmath>

#include "analyze/audit/audit.h"
#include "analyze/config/config_tree.h"

namespace ncdx::analyze {
namespace {

constexpr const char* kKey = "actor_rollout_ref.nccl_timeout";

double recommended_timeout(const AuditContext& ctx, std::string* basis) {
  const char* id = "verl.timeout";
  return tier_timeout_s(ctx.model ? ctx.model->params_b : std::nullopt, ctx.threshold(id, "small_model_max_b"),
                        ctx.threshold(id, "small_model_timeout_s"), ctx.threshold(id, "large_model_min_b"),
                        ctx.threshold(id, "large_model_timeout_s"), basis);
}

}  // namespace

double tier_timeout_s(std::optional<double> params_b, double small_b, double small_t, double large_b, double large_t,
                      std::string* basis) {
  std::string b;
  double t;
  if (!params_b) {
    b = "model size unknown: the small-model tier";
    t = small_t;
  } else if (*params_b <= small_b) {
    b = fmt_num(*params_b) + "B <= " + fmt_num(small_b) + "B";
    t = small_t;
  } else if (*params_b >= large_b) {
    b = fmt_num(*params_b) + "B >= " + fmt_num(large_b) + "B";
    t = large_t;
  } else {
    b = fmt_num(*params_b) + "B, between the tiers (interpolated)";
    t = std::ceil((small_t + (*params_b - small_b) / (large_b - small_b) * (large_t - small_t)) / 300.0) * 300.0;
  }
  if (basis) *basis = b;
  return t;
}

void rule_timeout(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  const auto& schema = ctx.schema;
  const auto* key = schema.find(kKey);
  if (!key) return;
  const bool exists = schema.exists(*key, ctx.verl, ctx.strategy);
  bool read = schema.is_read(*key, ctx.verl, ctx.strategy);
  auto configured = get_int(ctx.cfg.tree, kKey);
  auto origin_it = ctx.cfg.origin.find(kKey);
  std::string origin = origin_it == ctx.cfg.origin.end() ? "" : origin_it->second;
  bool user_set = !origin.empty() && origin.rfind("default", 0) != 0;
  // An override Hydra refused did not land in the tree.
  for (const auto& is : ctx.cfg.applied.issues)
    if (is.key == kKey) {
      AuditRow r = make_row("verl.timeout", kKey, is.input, core::Outcome::fail);  // the whole override: the prefix is the problem
      r.origin = is.origin;
      r.risk = "job does not start";
      r.recommended = is.kind == "append-existing" ? is.input.substr(1) : "+" + is.input;
      r.why = "Hydra refuses this override (" + is.message + "), so no timeout is applied at all.";
      rows.push_back(std::move(r));
    }

  std::string why_effective;
  bool engine_workers = false;
  if (read && ctx.verl >= core::V("0.6.0")) {
    auto impl = get_string(ctx.cfg.tree, "trainer.use_legacy_worker_impl");
    if (impl && *impl == "disable") {
      engine_workers = true;
      read = false;
    }
  }
  // torch's default for an NCCL process group (ProcessGroupNCCL.hpp:165 kProcessGroupNCCLDefaultTimeout): 10 min; <= 2.1 era code used 30 min.
  double torch_default = 600;
  std::string torch_note = "torch's default NCCL process-group timeout (10 min)";
  if (ctx.torch && *ctx.torch < core::V("2.2.0")) {
    torch_default = 1800;
    torch_note = "torch " + ctx.torch->str() + "'s default_pg_timeout (30 min)";
  }
  double effective = torch_default;
  if (read && configured) {
    effective = static_cast<double>(*configured);
    why_effective = "verl " + ctx.verl.str() + " (" + knowledge::to_string(ctx.strategy) +
                    " workers) passes it to init_process_group(timeout=...).";
  } else if (engine_workers) {
    why_effective = "trainer.use_legacy_worker_impl=disable selects the engine workers, which call "
                    "initialize_global_process_group_ray(timeout_second=None): " + torch_note + " applies.";
  } else if (!exists) {
    why_effective = std::string("'") + kKey + "' does not exist in verl " + ctx.verl.str() + " (" +
                    knowledge::to_string(ctx.strategy) + "; it exists " + schema.span(*key) + ")" +
                    (user_set ? "; added with '+' it is accepted and ignored" : "") + ": " + torch_note + " applies.";
  } else {
    why_effective = std::string("verl ") + ctx.verl.str() + " does not read '" + kKey +
                    "' (from v0.8.0 the engine workers pass timeout_second=None; PR #6067, #7820): " + torch_note + " applies.";
  }

  std::string basis;
  double rec = recommended_timeout(ctx, &basis);
  double risky = ctx.threshold("verl.timeout", "risky_below_s");
  AuditRow r = make_row("verl.timeout", std::string(kKey) + " (effective)",
                        fmt_num(effective) + " s" + (configured && !read ? " (configured " + std::to_string(*configured) + ", ignored)" : ""),
                        core::Outcome::pass);
  r.origin = origin;
  r.recommended = ">= " + fmt_num(rec) + " s (" + basis + ")";
  r.risk = "< " + fmt_num(risky) + " s";
  if (effective < risky) r.status = core::Outcome::fail;
  else if (effective < rec) r.status = core::Outcome::warn;
  if (user_set && !read) r.status = r.status == core::Outcome::fail ? core::Outcome::fail : core::Outcome::warn;
  // verl's own default (600 s, or no key at all) is never a WARN: INFO with the size tiers as advice.
  auto verl_default = exists ? schema.default_for(*key, ctx.verl, ctx.strategy) : std::nullopt;
  const bool is_default = !user_set || (configured && verl_default && verl_default->is_number_integer() &&
                                        verl_default->get<long long>() == *configured);
  if (is_default && r.status == core::Outcome::warn && !(user_set && !read)) {
    r.status = core::Outcome::info;
    r.why = "verl's default. Advice: " + r.why;
  }
  auto gpus = config_gpus(ctx);
  std::string scale;
  if (gpus && ctx.model && ctx.model->params_b && *gpus >= ctx.threshold("verl.timeout", "large_scale_gpus") &&
      *ctx.model->params_b >= 32)
    scale = " At " + std::to_string(*gpus) + " GPUs with a " + fmt_num(*ctx.model->params_b) +
            "B model, loading commonly exceeds 10 min (PR #1983).";
  r.why = why_effective + scale +
          " The size tiers are the playbook's, not verl's (upstream scripts use 1200-14400 s). A bigger timeout rarely "
          "fixes a hang: #2325/#2844/#2995/#3873 still time out at 2-3 h; find the stuck rank first (ncdx triage).";
  rows.push_back(std::move(r));
}

}  // namespace ncdx::analyze
