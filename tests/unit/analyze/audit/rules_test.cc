// Verdicts of the audit rules on the playbook's examples and on verl's own assertions, checked by
// rule id, status and key phrases (the CLI goldens check the full text).
#include <gtest/gtest.h>

#include "analyze/audit/audit.h"
#include "analyze/config/model_identify.h"
#include "analyze/config/run_script.h"

using namespace ncdx;
using namespace ncdx::analyze;

namespace {

struct Run {
  ComposedConfig cfg;
  std::vector<AuditRow> rows;
};

Run audit(const char* ver, std::initializer_list<const char*> overrides, ClusterSpec cluster = {},
          const char* model_size = "", knowledge::Strategy s = knowledge::Strategy::fsdp,
          const RunScript* script = nullptr) {
  ComposeInput in;
  in.verl = core::V(ver);
  in.strategy = s;
  for (auto o : overrides) {
    auto p = parse_override(o);
    EXPECT_TRUE(p.ok()) << o;
    p->origin = "test";
    in.overrides.push_back(*p);
  }
  Run r;
  r.cfg = *compose_verl(in);
  auto model = identify_model(model_size, "");
  AuditContext ctx{r.cfg, **knowledge::VerlSchema::get(), core::V(ver), false, s, std::nullopt, std::nullopt, cluster,
                   model->info, model->from, script, in.overrides, {}, {}};
  r.rows = run_audit(ctx);
  return r;
}

const AuditRow* find(const Run& r, const std::string& rule, const std::string& param_prefix = "") {
  for (const auto& x : r.rows)
    if (x.rule == rule && x.parameter.rfind(param_prefix, 0) == 0) return &x;
  return nullptr;
}

}  // namespace

TEST(AuditRules, PlaybookInventedKeys) {
  auto r = audit("0.7.1", {"trainer.dist_backend=nccl", "model.tensor_parallel_size=8", "actor_rollout_ref.rollout.name=vllm"});
  const auto* b = find(r, "verl.backend", "trainer.dist_backend");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->status, core::Outcome::fail);
  EXPECT_NE(b->why.find("cpu:gloo,cuda:nccl"), std::string::npos);
  EXPECT_NE(b->why.find("Could not override 'trainer.dist_backend'"), std::string::npos);
  const auto* t = find(r, "verl.keys", "model.tensor_parallel_size");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->status, core::Outcome::fail);
  EXPECT_EQ(t->recommended, "actor_rollout_ref.rollout.tensor_model_parallel_size=8");
}

TEST(AuditRules, PlusOnExistingTimeoutIsHydraError) {
  auto r = audit("0.7.1", {"+actor_rollout_ref.nccl_timeout=1200", "actor_rollout_ref.rollout.name=vllm"}, {}, "7B");
  const auto* t = find(r, "verl.timeout", "actor_rollout_ref.nccl_timeout");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->status, core::Outcome::fail);
  EXPECT_EQ(t->recommended, "actor_rollout_ref.nccl_timeout=1200");
  EXPECT_NE(t->why.find("Could not append to config. An item is already at 'actor_rollout_ref.nccl_timeout'"), std::string::npos);
  // The same line is right on FSDP 0.5 (the key is absent) but nothing reads it there.
  auto r5 = audit("0.5.0", {"+actor_rollout_ref.nccl_timeout=1200"}, {}, "7B");
  const auto* e = find(r5, "verl.timeout", "actor_rollout_ref.nccl_timeout (effective)");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->status, core::Outcome::warn);
  EXPECT_EQ(e->value.rfind("600 s", 0), 0u);
  // Megatron 0.5 reads it: 1200 for a 7B model passes.
  auto m5 = audit("0.5.0", {"actor_rollout_ref.nccl_timeout=1200"}, {}, "7B", knowledge::Strategy::megatron);
  EXPECT_EQ(find(m5, "verl.timeout", "actor_rollout_ref.nccl_timeout (effective)")->status, core::Outcome::pass);
  // Below the risky threshold is a FAIL; 0.8+ ignores the key.
  auto low = audit("0.7.1", {"actor_rollout_ref.nccl_timeout=120", "actor_rollout_ref.rollout.name=vllm"}, {}, "7B");
  EXPECT_EQ(find(low, "verl.timeout", "actor_rollout_ref.nccl_timeout (effective)")->status, core::Outcome::fail);
  auto v8 = audit("0.8.0", {"actor_rollout_ref.nccl_timeout=7200", "actor_rollout_ref.rollout.name=vllm"}, {}, "7B");
  const auto* e8 = find(v8, "verl.timeout", "actor_rollout_ref.nccl_timeout (effective)");
  EXPECT_EQ(e8->status, core::Outcome::warn);
  EXPECT_NE(e8->why.find("#7820"), std::string::npos);
  // 0.7 with the engine workers: also ignored.
  auto eng = audit("0.7.1", {"actor_rollout_ref.nccl_timeout=7200", "trainer.use_legacy_worker_impl=disable",
                             "actor_rollout_ref.rollout.name=vllm"}, {}, "7B");
  EXPECT_EQ(find(eng, "verl.timeout", "actor_rollout_ref.nccl_timeout (effective)")->status, core::Outcome::warn);
}

TEST(AuditRules, VerlDivisibilityMessages) {
  auto mp = audit("0.7.1", {"actor_rollout_ref.actor.megatron.tensor_model_parallel_size=3", "actor_rollout_ref.rollout.name=vllm"},
                  {}, "", knowledge::Strategy::megatron);
  const auto* m = find(mp, "verl.divisible.model-parallel");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->status, core::Outcome::fail);
  EXPECT_NE(m->why.find("n_gpus (8) must be divisible by model_parallel_size (3) times context_parallel_size (1)"), std::string::npos);
  auto ro = audit("0.7.1", {"actor_rollout_ref.rollout.tensor_model_parallel_size=3", "actor_rollout_ref.rollout.name=vllm"});
  EXPECT_NE(find(ro, "verl.divisible.rollout")->why.find("rollout world_size: 8 is not divisible by infer_world_size: 3"), std::string::npos);
  auto bs = audit("0.7.1", {"data.train_batch_size=100", "actor_rollout_ref.actor.ppo_mini_batch_size=50",
                            "actor_rollout_ref.rollout.name=vllm"});
  EXPECT_NE(find(bs, "verl.divisible.batch")->why.find("real_train_batch_size (100) must be divisible by minimal possible batch size (8)"),
            std::string::npos);
  auto mini = audit("0.7.1", {"actor_rollout_ref.actor.ppo_mini_batch_size=2048", "actor_rollout_ref.rollout.name=vllm"});
  EXPECT_EQ(find(mini, "verl.divisible.mini-batch")->status, core::Outcome::fail);
  auto sp = audit("0.7.1", {"actor_rollout_ref.actor.ulysses_sequence_parallel_size=8", "actor_rollout_ref.rollout.name=vllm"}, {},
                  "");
  EXPECT_EQ(find(sp, "verl.divisible.ulysses-heads")->status, core::Outcome::skip);  // heads unknown
}

TEST(AuditRules, ClusterShapeAndMemory) {
  ClusterSpec c{1, 4, std::string("nvswitch"), 80.0};
  auto r = audit("0.7.1", {"actor_rollout_ref.rollout.tensor_model_parallel_size=8", "actor_rollout_ref.rollout.gpu_memory_utilization=0.97",
                           "actor_rollout_ref.rollout.name=vllm"}, c, "7B");
  const auto* g = find(r, "verl.resources.gpus");
  EXPECT_EQ(g->status, core::Outcome::fail);
  EXPECT_NE(g->why.find("Total available GPUs 4.0 is less than total desired GPUs 8"), std::string::npos);
  EXPECT_EQ(find(r, "verl.parallel.within-node", "actor_rollout_ref.rollout.tensor_model_parallel_size")->status, core::Outcome::fail);
  EXPECT_EQ(find(r, "verl.memory.gpu-util")->status, core::Outcome::fail);
  ClusterSpec two{2, 8, std::string("ib"), 80.0};
  auto x = audit("0.7.1", {"actor_rollout_ref.rollout.tensor_model_parallel_size=16", "trainer.nnodes=2",
                           "actor_rollout_ref.rollout.name=vllm"}, two, "7B");
  EXPECT_EQ(find(x, "verl.parallel.within-node", "actor_rollout_ref.rollout.tensor_model_parallel_size")->status, core::Outcome::warn);
  // A 70B model on 8 GPUs without offload: the training state does not fit.
  auto big = audit("0.7.1", {"actor_rollout_ref.rollout.tensor_model_parallel_size=8", "actor_rollout_ref.rollout.name=vllm"},
                   ClusterSpec{1, 8, std::nullopt, 80.0}, "70B");
  EXPECT_EQ(find(big, "verl.memory.training-state")->status, core::Outcome::warn);
  auto off = audit("0.7.1", {"actor_rollout_ref.rollout.tensor_model_parallel_size=8", "actor_rollout_ref.rollout.name=vllm",
                             "actor_rollout_ref.actor.fsdp_config.param_offload=True",
                             "actor_rollout_ref.actor.fsdp_config.optimizer_offload=True"},
                   ClusterSpec{1, 8, std::nullopt, 80.0}, "70B");
  EXPECT_EQ(find(off, "verl.memory.training-state")->status, core::Outcome::pass);
}

TEST(AuditRules, RenamesTyposAndRolloutName) {
  auto r = audit("0.6.0", {"ray_init.timeline_json_file=/tmp/t.json", "actor_rollout_ref.rollout.tensor_model_paralel_size=4"});
  const auto* t = find(r, "verl.ray.timeline");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->status, core::Outcome::fail);
  EXPECT_EQ(t->recommended, "ray_kwargs.timeline_json_file=/tmp/t.json");
  const auto* typo = find(r, "verl.keys", "actor_rollout_ref.rollout.tensor_model_paralel_size");
  ASSERT_NE(typo, nullptr);
  EXPECT_EQ(typo->recommended, "actor_rollout_ref.rollout.tensor_model_parallel_size");
  EXPECT_EQ(find(r, "verl.rollout.name")->status, core::Outcome::fail);  // ??? from 0.6.0
  auto ok5 = audit("0.5.0", {"ray_init.timeline_json_file=/tmp/t.json"});
  EXPECT_EQ(find(ok5, "verl.ray.timeline")->status, core::Outcome::pass);
  EXPECT_EQ(find(ok5, "verl.rollout.name")->status, core::Outcome::pass);  // default vllm before 0.6
  // verl's own default timeout (600 s) is INFO, not WARN (#11 §4); neither rollout
  // log_prob_micro_batch_size nor its _per_gpu form is set, which verl 0.5.0 refuses with a
  // ValueError (verl/trainer/ppo/ray_trainer.py:450 in the 0.5.0 wheel).
  EXPECT_EQ(find(ok5, "verl.timeout")->status, core::Outcome::info);
  EXPECT_EQ(find(ok5, "verl.log-prob-micro-batch")->status, core::Outcome::fail);
  EXPECT_EQ(core::exit_code_of(ok5.rows), 2);
}

// A value the script computes at run time is a WARN only where a rule reads the key: verl 0.7.0's
// examples had 65 such WARNs, 40 of them on trainer.experiment_name / default_local_dir-like keys.
TEST(AuditRules, UnresolvedValueWarnsOnlyWhereARuleReadsTheKey) {
  RunScript rs;
  rs.file = "run.sh";
  rs.entry_line = 1;
  auto issue = [](const char* key) {
    return ScriptIssue{"script.unresolved", 3, key, std::string("'") + key + "=$(x)': $(x); the value is not known until the script runs", ""};
  };
  rs.issues = {issue("trainer.experiment_name"), issue("actor_rollout_ref.rollout.tensor_model_parallel_size"),
               issue("+trainer.default_local_dir"), issue("${K}.x")};
  auto r = audit("0.7.1", {"actor_rollout_ref.rollout.name=vllm"}, {1, 8}, "7B", knowledge::Strategy::fsdp, &rs);
  const auto* name = find(r, "script.unresolved", "trainer.experiment_name");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->status, core::Outcome::info);
  EXPECT_NE(name->why.find("no ncdx rule judges trainer.experiment_name"), std::string::npos);
  EXPECT_EQ(find(r, "script.unresolved", "+trainer.default_local_dir")->status, core::Outcome::info);
  // The rollout divisibility rule reads the rollout TP: unknown there, the warning stays.
  EXPECT_EQ(find(r, "script.unresolved", "actor_rollout_ref.rollout.tensor_model_parallel_size")->status, core::Outcome::warn);
  // A key the shell computes is not known either.
  EXPECT_EQ(find(r, "script.unresolved", "${K}.x")->status, core::Outcome::warn);
}
