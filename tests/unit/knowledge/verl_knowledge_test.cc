#include <gtest/gtest.h>

#include "knowledge/audit_rules.h"
#include "knowledge/model_families.h"
#include "knowledge/verl_facts.h"
#include "knowledge/verl_schema.h"
#include "knowledge/yaml_json.h"

using namespace ncdx;
using namespace ncdx::knowledge;

TEST(VerlSchema, LoadsAndAnswersPerVersion) {
  auto s = VerlSchema::get();
  ASSERT_TRUE(s.ok()) << s.status().message();
  const auto& sc = **s;
  const auto* t = sc.find("actor_rollout_ref.nccl_timeout");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(sc.exists(*t, core::V("0.5.0"), Strategy::fsdp));
  EXPECT_TRUE(sc.exists(*t, core::V("0.4.1"), Strategy::megatron));
  EXPECT_FALSE(sc.exists(*t, core::V("0.4.0"), Strategy::megatron));
  EXPECT_TRUE(sc.is_read(*t, core::V("0.7.1"), Strategy::fsdp));
  EXPECT_TRUE(sc.exists(*t, core::V("0.8.0"), Strategy::fsdp));
  EXPECT_FALSE(sc.is_read(*t, core::V("0.8.0"), Strategy::fsdp));
  const auto* r = sc.find("ray_init.num_cpus");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->renamed_to, "ray_kwargs.ray_init.num_cpus");
  EXPECT_FALSE(sc.exists(*r, core::V("0.6.0"), Strategy::fsdp));
  // Existence comes from verl's released config (verl_config.tsv), not from hand-written notes.
  const auto* lp = sc.find("actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu");
  ASSERT_NE(lp, nullptr);
  for (const auto& v : sc.versions()) EXPECT_TRUE(sc.exists(*lp, v, Strategy::fsdp)) << v.str();
  EXPECT_EQ(sc.latest(), sc.versions().back());
  ASSERT_NE(sc.invented("trainer.dist_backend"), nullptr);
  EXPECT_EQ(sc.invented("model.tensor_parallel_size")->did_you_mean, "actor_rollout_ref.rollout.tensor_model_parallel_size");
  EXPECT_NE(sc.invented("trainer.nccl_timeout"), nullptr);
  EXPECT_EQ(sc.invented("trainer.nnodes"), nullptr);
  // Every renamed_to target exists in the schema, and every key is unique.
  std::set<std::string> seen;
  for (const auto& k : sc.keys()) {
    EXPECT_TRUE(seen.insert(k.key).second) << k.key;
    if (!k.renamed_to.empty()) { EXPECT_NE(sc.find(k.renamed_to), nullptr) << k.renamed_to; }
  }
}

TEST(VerlFacts, EntryPointsGroupsAndDefaultsFromTheWheels) {
  auto f = VerlFacts::get();
  ASSERT_TRUE(f.ok()) << f.status().message();
  const auto& x = **f;
  ASSERT_GE(x.versions().size(), 10u);
  EXPECT_EQ(x.versions().front(), core::V("0.4.0"));
  EXPECT_EQ(x.entry_config("verl.trainer.main_ppo", core::V("0.5.0")), "trainer/config/ppo_trainer");
  EXPECT_EQ(x.entry_config("verl.trainer.fsdp_sft_trainer", core::V("0.5.0")), "trainer/config/sft_trainer");
  EXPECT_FALSE(x.entry_config("verl.trainer.fsdp_sft_trainer", core::V("0.9.1")));  // gone from the wheel
  EXPECT_EQ(x.entry_config("verl.trainer.sft_trainer", core::V("0.9.1")), "trainer/config/sft_trainer_engine");
  EXPECT_FALSE(x.entry_config("recipe.dapo.main_dapo", core::V("0.7.1")));  // recipe/ is not in the wheel
  EXPECT_TRUE(x.has_config("trainer/config/ppo_megatron_trainer", core::V("0.4.0")));
  // 0.8+ picks the engine with a Hydra group.
  auto ch = x.choices("trainer/config/ppo_trainer", core::V("0.9.1"));
  ASSERT_TRUE(ch.count("model_engine"));
  EXPECT_EQ(ch["model_engine"].front().option, "dp");
  auto dp = x.tree("trainer/config/ppo_trainer", core::V("0.9.1"), {});
  auto mg = x.tree("trainer/config/ppo_trainer", core::V("0.9.1"), {"model_engine=megatron"});
  EXPECT_EQ(dp["actor_rollout_ref"]["actor"]["strategy"], "fsdp");
  EXPECT_EQ(mg["actor_rollout_ref"]["actor"]["strategy"], "megatron");
  EXPECT_TRUE(mg["actor_rollout_ref"]["actor"].contains("megatron"));
  EXPECT_EQ(x.value("trainer/config/ppo_trainer", core::V("0.5.0"), "actor_rollout_ref.rollout.name"), nlohmann::json("vllm"));
  EXPECT_EQ(x.value("trainer/config/ppo_trainer", core::V("0.7.1"), "actor_rollout_ref.rollout.name"), nlohmann::json("???"));
  EXPECT_EQ(x.span(0), "no version");
}

TEST(VerlFacts, BadTablesAreInternalErrors) {
  const std::string head = "# Our own facts table (not verl's files). Versions are ranges over: 0.4.0, 0.5.0.\n";
  EXPECT_TRUE(parse_verl_facts(head + "c\t-\ta.b\tint\t1\t-\t0.4.0-0.5.0\n", "", "").ok());
  EXPECT_FALSE(parse_verl_facts(head + "c\t-\ta.b\tint\t1\t-\n", "", "").ok());             // columns
  EXPECT_FALSE(parse_verl_facts(head + "c\t-\ta.b\tint\t{x\t-\t0.4.0\n", "", "").ok());       // JSON
  EXPECT_FALSE(parse_verl_facts(head + "c\t-\ta.b\tint\t1\t-\t0.9.0\n", "", "").ok());        // range
  EXPECT_FALSE(parse_verl_facts("c\t-\ta.b\tint\t1\t-\t0.4.0\n", "", "").ok());               // no header
}

TEST(ModelFamilies, MatchAndSizes) {
  ASSERT_TRUE(model_table_status().is_ok()) << model_table_status().message();
  EXPECT_GE(model_table().size(), 30u);
  auto m = match_model("/models/Qwen2.5-7B-Instruct");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->id, "qwen2.5-7b");
  EXPECT_EQ(m->heads, 28);
  EXPECT_EQ(m->kv_heads, 4);
  EXPECT_EQ(match_model("Qwen/Qwen3-235B-A22B")->id, "qwen3-235b-a22b");
  EXPECT_EQ(match_model("deepseek-ai/DeepSeek-R1")->id, "deepseek-v3");
  EXPECT_EQ(match_model("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B")->id, "deepseek-r1-distill-qwen-7b");
  EXPECT_EQ(match_model("meta-llama/Llama-3.3-70B-Instruct")->id, "llama-3.x-70b");
  EXPECT_FALSE(match_model("my-own-model"));
  EXPECT_EQ(parse_size_token("7B"), 7.0);
  EXPECT_EQ(parse_size_token("Qwen2.5-1.5B-Instruct"), 1.5);
  EXPECT_EQ(parse_size_token("Mixtral-8x7B"), 56.0);
  EXPECT_FALSE(parse_size_token("Qwen2.5").has_value());
  for (const auto& x : model_table()) {
    ASSERT_TRUE(x.heads && x.kv_heads && x.hidden && x.params_b && x.vocab) << x.id;
    EXPECT_EQ(*x.heads % *x.kv_heads, 0) << x.id;  // GQA groups are whole
    EXPECT_EQ(x.source.rfind("https://huggingface.co/", 0), 0u) << x.id;
  }
}

TEST(AuditRules, EveryRuleHasRationaleAndSource) {
  auto r = audit_rules();
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_GE((*r)->size(), 15u);
  for (const auto& x : **r) {
    EXPECT_FALSE(x.rationale.empty()) << x.id;
    EXPECT_FALSE(x.source.empty()) << x.id;
  }
  const auto* t = find_audit_rule("verl.timeout");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->thresholds.at("small_model_timeout_s"), 1200);
  EXPECT_EQ(t->thresholds.at("large_model_timeout_s"), 3600);
  EXPECT_EQ(t->thresholds.at("risky_below_s"), 300);
}

TEST(YamlJson, OmegaConfScalarTyping) {
  EXPECT_EQ(omegaconf_plain_scalar("yes"), nlohmann::json(true));
  EXPECT_EQ(omegaconf_plain_scalar("Off"), nlohmann::json(false));
  EXPECT_EQ(omegaconf_plain_scalar("1e-6"), nlohmann::json(1e-6));
  EXPECT_EQ(omegaconf_plain_scalar("0x10"), nlohmann::json(16));
  EXPECT_EQ(omegaconf_plain_scalar("010"), nlohmann::json(8));
  EXPECT_EQ(omegaconf_plain_scalar("1_000"), nlohmann::json(1000));
  EXPECT_EQ(omegaconf_plain_scalar("~"), nlohmann::json(nullptr));
  EXPECT_EQ(omegaconf_plain_scalar("${a.b}"), nlohmann::json("${a.b}"));
  auto j = parse_yaml_json("a: 'yes'\nb: yes\nc:\nd: [1, x]\n", "t.yaml");
  ASSERT_TRUE(j.ok());
  EXPECT_EQ((*j)["a"], "yes");
  EXPECT_EQ((*j)["b"], true);
  EXPECT_TRUE((*j)["c"].is_null());
  auto bomb = parse_yaml_json("a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                              "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
                              "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\n",
                              "bomb.yaml");
  EXPECT_FALSE(bomb.ok());
}
