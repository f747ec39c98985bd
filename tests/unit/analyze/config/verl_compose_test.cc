#include "analyze/config/verl_compose.h"

#include <gtest/gtest.h>

#include "analyze/config/config_tree.h"

using namespace ncdx;
using namespace ncdx::analyze;

namespace {
std::vector<Override> ovs(std::initializer_list<const char*> list) {
  std::vector<Override> out;
  for (auto s : list) out.push_back(*parse_override(s));
  return out;
}
ComposedConfig compose(const char* ver, knowledge::Strategy s, std::vector<Override> o, std::optional<std::string> yaml = {}) {
  ComposeInput in;
  in.verl = core::V(ver);
  in.strategy = s;
  in.overrides = std::move(o);
  in.yaml_text = yaml;
  in.yaml_name = "c.yaml";
  auto r = compose_verl(in);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}
}  // namespace

TEST(VerlCompose, NcclTimeoutPerVersionAndStrategy) {
  // FSDP 0.5: the key does not exist -> '+' is required (and accepted).
  auto a = compose("0.5.0", knowledge::Strategy::fsdp, ovs({"+actor_rollout_ref.nccl_timeout=1200"}));
  EXPECT_TRUE(a.applied.issues.empty());
  EXPECT_EQ(get_int(a.tree, "actor_rollout_ref.nccl_timeout"), 1200);
  // FSDP 0.6: the key exists -> '+' is Hydra's "Could not append".
  auto b = compose("0.6.0", knowledge::Strategy::fsdp, ovs({"+actor_rollout_ref.nccl_timeout=1200"}));
  ASSERT_EQ(b.applied.issues.size(), 1u);
  EXPECT_EQ(b.applied.issues[0].kind, "append-existing");
  EXPECT_EQ(get_int(b.tree, "actor_rollout_ref.nccl_timeout"), 600);
  // Megatron 0.4.1 has it already; FSDP 0.5 without '+' fails.
  auto c = compose("0.4.1", knowledge::Strategy::megatron, ovs({"actor_rollout_ref.nccl_timeout=1200"}));
  EXPECT_TRUE(c.applied.issues.empty());
  auto d = compose("0.5.0", knowledge::Strategy::fsdp, ovs({"actor_rollout_ref.nccl_timeout=1200"}));
  ASSERT_EQ(d.applied.issues.size(), 1u);
  EXPECT_EQ(d.applied.issues[0].kind, "missing-key");
}

TEST(VerlCompose, RayKwargsRename) {
  auto a = compose("0.6.0", knowledge::Strategy::fsdp, ovs({"ray_init.timeline_json_file=/tmp/t.json"}));
  ASSERT_EQ(a.applied.issues.size(), 1u);
  auto b = compose("0.5.0", knowledge::Strategy::fsdp, ovs({"ray_init.timeline_json_file=/tmp/t.json"}));
  EXPECT_TRUE(b.applied.issues.empty());
  auto c = compose("0.6.0", knowledge::Strategy::fsdp, ovs({"ray_kwargs.timeline_json_file=/tmp/t.json"}));
  EXPECT_TRUE(c.applied.issues.empty());
}

TEST(VerlCompose, DefaultsYamlOverridesAndOrigins) {
  auto a = compose("0.7.1", knowledge::Strategy::fsdp, ovs({"trainer.nnodes=4"}),
                   std::string("trainer:\n  n_gpus_per_node: 4\nactor_rollout_ref:\n  rollout:\n    name: sglang\n"));
  EXPECT_EQ(get_int(a.tree, "trainer.nnodes"), 4);
  EXPECT_EQ(get_int(a.tree, "trainer.n_gpus_per_node"), 4);
  EXPECT_EQ(get_string(a.tree, "actor_rollout_ref.rollout.name"), "sglang");
  EXPECT_EQ(get_int(a.tree, "actor_rollout_ref.rollout.tensor_model_parallel_size"), 2);
  EXPECT_EQ(a.origin["trainer.n_gpus_per_node"], "c.yaml:2");
  EXPECT_EQ(a.origin["actor_rollout_ref.rollout.name"], "c.yaml:5");
  EXPECT_EQ(a.origin["actor_rollout_ref.rollout.n"].rfind("default", 0), 0u);
  // rollout.name default: vllm up to 0.5, mandatory from 0.6.
  EXPECT_EQ(get_string(compose("0.5.0", knowledge::Strategy::fsdp, {}).tree, "actor_rollout_ref.rollout.name"), "vllm");
  EXPECT_FALSE(get_string(compose("0.6.0", knowledge::Strategy::fsdp, {}).tree, "actor_rollout_ref.rollout.name").has_value());
}

TEST(VerlCompose, MalformedYamlHasLineAndColumn) {
  ComposeInput in;
  in.verl = core::V("0.7.1");
  in.yaml_text = "a:\n  b: [1,\n  c: 2\n";
  in.yaml_name = "bad.yaml";
  auto r = compose_verl(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::Exit::bad_input);
  EXPECT_EQ(r.status().message().rfind("bad.yaml:", 0), 0u);
}

TEST(VerlCompose, DetectStrategy) {
  EXPECT_EQ(detect_strategy(std::string("ppo_megatron_trainer.yaml"), {}, std::nullopt), knowledge::Strategy::megatron);
  EXPECT_EQ(detect_strategy(std::nullopt, ovs({"actor_rollout_ref.actor.strategy=megatron"}), std::nullopt),
            knowledge::Strategy::megatron);
  EXPECT_EQ(detect_strategy(std::nullopt, {}, std::nullopt), knowledge::Strategy::fsdp);
}

TEST(VerlCompose, ConfigGroupOverridesSelectTheWheelsOptions) {
  // 0.9 picks the engine with a group: the Megatron keys exist only after model_engine=megatron.
  auto a = compose("0.9.1", knowledge::Strategy::fsdp,
                   ovs({"model_engine=megatron", "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4"}));
  EXPECT_TRUE(a.applied.issues.empty()) << a.applied.issues.front().message;
  EXPECT_EQ(a.strategy, knowledge::Strategy::megatron);
  EXPECT_EQ(a.groups, (std::vector<std::string>{"model_engine=megatron"}));
  EXPECT_EQ(get_int(a.tree, "actor_rollout_ref.actor.megatron.tensor_model_parallel_size"), 4);
  auto b = compose("0.9.1", knowledge::Strategy::fsdp, ovs({"actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4"}));
  ASSERT_EQ(b.applied.issues.size(), 1u);
  EXPECT_EQ(b.applied.issues[0].kind, "missing-key");
  // A group with a package, an unknown option, a package the defaults list does not have.
  auto c = compose("0.7.1", knowledge::Strategy::fsdp, ovs({"actor@actor_rollout_ref.actor=megatron_actor"}));
  EXPECT_TRUE(c.applied.issues.empty());
  EXPECT_EQ(get_string(c.tree, "actor_rollout_ref.actor.strategy"), "megatron");
  auto d = compose("0.9.1", knowledge::Strategy::fsdp, ovs({"model_engine=nope", "actor@actor_rollout_ref.nope=dp_actor"}));
  ASSERT_EQ(d.applied.issues.size(), 2u);
  EXPECT_EQ(d.applied.issues[0].kind, "group-option");
  EXPECT_NE(d.applied.issues[0].message.find("Available options in 'model_engine'"), std::string::npos);
  EXPECT_EQ(d.applied.issues[1].kind, "group-missing");
  // Entry points other than PPO compose their own config.
  ComposeInput in;
  in.verl = core::V("0.9.1");
  in.config = "trainer/config/sft_trainer_engine";
  auto e = compose_verl(in);
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(find_path(e->tree, "actor_rollout_ref"));
}
