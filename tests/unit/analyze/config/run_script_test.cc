#include "analyze/config/run_script.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analyze/config/shell_expand.h"

using namespace ncdx::analyze;

namespace {
std::string slurp(const std::string& name) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/audit/" + name);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
RunScript parse(const std::string& text) {
  auto r = parse_run_script(text, "t.sh");
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : RunScript{};
}
std::vector<std::string> texts(const RunScript& r) {
  std::vector<std::string> o;
  for (const auto& a : r.overrides) o.push_back(a.text);
  return o;
}
bool has_issue(const RunScript& r, const std::string& rule, const std::string& subject) {
  for (const auto& i : r.issues)
    if (i.rule == rule && i.subject == subject) return true;
  return false;
}
}  // namespace

TEST(RunScript, ContinuationsQuotesVariablesArithmetic) {
  auto r = parse(
      "tp=4\nN=${NNODES:-2}\nL=$((1024 * 32))\nexport NCCL_DEBUG=WARN\n"
      "python3 -m verl.trainer.main_ppo \\\n"
      "  a.tp=$tp \\\n  a.n=\"${N}\" \\\n  a.len=${L} \\\n  data.truncation='error' \\\n"
      "  trainer.logger=['console','wandb'] \\\n  trainer.logger2='[\"console\",\"wandb\"]' $@\n");
  EXPECT_EQ(r.entry_line, 5);
  EXPECT_EQ(texts(r), (std::vector<std::string>{"a.tp=4", "a.n=2", "a.len=32768", "data.truncation=error",
                                                "trainer.logger=[console,wandb]", "trainer.logger2=[\"console\",\"wandb\"]"}));
  EXPECT_EQ(r.overrides[1].line, 7);
  ASSERT_EQ(r.env.size(), 1u);
  EXPECT_EQ(r.env[0].name, "NCCL_DEBUG");
  EXPECT_EQ(r.env[0].value, "WARN");
}

TEST(RunScript, ConfigFlagsAndRaySubmit) {
  auto r = parse("ray job submit --address=x -- python3 -m verl.trainer.main_ppo --config-path=config "
                 "--config-name='ppo_megatron_trainer.yaml' trainer.nnodes=2\n");
  EXPECT_EQ(r.config_path, "config");
  EXPECT_EQ(r.config_name, "ppo_megatron_trainer.yaml");
  EXPECT_EQ(texts(r), std::vector<std::string>{"trainer.nnodes=2"});
}

TEST(RunScript, UndefinedVariableAndMissingDollar) {
  auto r = parse(slurp("qwen2-70b_grpo_32_h20_fsdp_vllm.sh"));
  EXPECT_TRUE(has_issue(r, "script.undefined-var", "data.train_files"));
  EXPECT_TRUE(has_issue(r, "script.missing-dollar", "actor_rollout_ref.model.path"));
  EXPECT_FALSE(has_issue(r, "script.undefined-var", "data.val_files"));  // $HOME is a login variable
}

TEST(RunScript, UnresolvedIsReportedNotGuessed) {
  auto r = parse("G=$(nvidia-smi -L | wc -l)\nif [ x ]; then TP=4; else TP=2; fi\n"
                 "python3 -m verl.trainer.main_ppo trainer.n_gpus_per_node=$G a.tp=$TP a.x=$((G*2))\n");
  ASSERT_EQ(r.overrides.size(), 3u);
  for (const auto& o : r.overrides) EXPECT_FALSE(o.unresolved.empty()) << o.text;
  EXPECT_TRUE(has_issue(r, "script.unresolved", "trainer.n_gpus_per_node"));
  EXPECT_TRUE(has_issue(r, "script.unresolved", "a.tp"));
}

TEST(RunScript, FieldSplittingOfUnquotedExpansions) {
  auto r = parse("COMMON=\"a.x=1 a.y=2\"\npython3 -m verl.trainer.main_ppo $COMMON \"$COMMON\"\n");
  EXPECT_EQ(texts(r), (std::vector<std::string>{"a.x=1", "a.y=2", "a.x=1 a.y=2"}));
}

TEST(RunScript, HeredocsCommentsAndSeparators) {
  auto r = parse("cat <<EOF\npython3 -m verl.trainer.main_ppo not.this=1\nEOF\n# python3 -m verl.trainer.main_ppo no=1\n"
                 "X=1; python3 -m verl.trainer.main_ppo a.b=$X && echo done\n");
  EXPECT_EQ(texts(r), std::vector<std::string>{"a.b=1"});
}

TEST(RunScript, BadInputNamesFileAndLine) {
  for (auto [text, line] : std::vector<std::pair<std::string, std::string>>{
           {"python3 -m verl.trainer.main_ppo \\\n  a='x \\\n", "t.sh:2"},
           {"python3 -m verl.trainer.main_ppo \\\n  a=\"x\n", "t.sh:2"},
           {"python3 -m verl.trainer.main_ppo a=1 \\", "t.sh:1"},
           {"X=$(echo\n", "t.sh:1"},
           {std::string("a=1\n\0b", 5), "t.sh:2"}}) {
    auto r = parse_run_script(text, "t.sh");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().code(), ncdx::core::Exit::bad_input);
    EXPECT_EQ(r.status().message().rfind(line + ":", 0), 0u) << r.status().message();
  }
}

TEST(ShellExpand, Arithmetic) {
  ShellLookup none = [](const std::string&) -> std::optional<ShellVarValue> { return std::nullopt; };
  std::string why;
  EXPECT_EQ(eval_arith("1024 * 32", none, &why), 32768);
  EXPECT_EQ(eval_arith("(2+3)*4 - 10 / 3 % 2", none, &why), 19);
  EXPECT_EQ(eval_arith("2**10", none, &why), 1024);
  EXPECT_EQ(eval_arith("-x + 1", none, &why), 1);  // unset is 0 in bash arithmetic
  EXPECT_FALSE(eval_arith("1/0", none, &why).has_value());
  EXPECT_FALSE(eval_arith("1 +", none, &why).has_value());
}

// Issue #12 item 5: nested ${A:-${A:-…}} cost memory quadratic in the depth and crashed at
// 12 000 levels. Now refused past 64 levels with file:line, before lexing.
TEST(RunScript, ExpansionDepthIsBounded) {
  auto nested = [](int d) {
    std::string s;
    for (int i = 0; i < d; ++i) s += "${A:-";
    s += "x";
    for (int i = 0; i < d; ++i) s += "}";
    return s;
  };
  for (int d : {65, 12000, 50000}) {
    auto r = ncdx::analyze::parse_run_script("#!/bin/bash\nX=" + nested(d) + "\n", "run.sh");
    ASSERT_FALSE(r) << d;
    EXPECT_EQ(r.status().code(), ncdx::core::Exit::bad_input);
    EXPECT_NE(r.status().message().find("run.sh:2:"), std::string::npos) << r.status().message();
  }
  auto ok = ncdx::analyze::parse_run_script("X=" + nested(8) + "\necho \"it's\" '${' $X\n", "ok.sh");
  EXPECT_TRUE(ok) << ok.status().message();
}
