#include "analyze/config/hydra_apply.h"

#include <gtest/gtest.h>

#include "analyze/config/config_tree.h"

using namespace ncdx::analyze;
using nlohmann::json;

namespace {
std::vector<Override> ovs(std::initializer_list<const char*> list) {
  std::vector<Override> out;
  for (auto s : list) {
    auto o = parse_override(s);
    EXPECT_TRUE(o.ok()) << s;
    o->origin = "t";
    out.push_back(*o);
  }
  return out;
}
json base() { return json::parse(R"({"a":{"x":1,"n":null,"m":"???","d":{"p":1}},"l":[1,2]})"); }
}  // namespace

TEST(HydraApply, ChangeNeedsExistingKey) {
  auto cfg = base();
  auto r = apply_overrides(cfg, ovs({"a.x=2", "a.y=3"}), nullptr);
  EXPECT_EQ(cfg["a"]["x"], 2);
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].kind, "missing-key");
  EXPECT_NE(r.issues[0].message.find("Could not override 'a.y'. To append to your config use +a.y=3"), std::string::npos);
  EXPECT_FALSE(cfg["a"].contains("y"));
}

TEST(HydraApply, AppendMustNotExist) {
  auto cfg = base();
  auto r = apply_overrides(cfg, ovs({"+a.y=3", "+a.x=5", "+a.n=4", "+a.m=6", "+z.q=1"}), nullptr);
  EXPECT_EQ(cfg["a"]["y"], 3);
  EXPECT_EQ(cfg["a"]["x"], 1);  // refused
  EXPECT_EQ(cfg["a"]["n"], 4);  // null counts as absent (OmegaConf.select returns None)
  EXPECT_EQ(cfg["a"]["m"], 6);  // ??? too
  EXPECT_EQ(cfg["z"]["q"], 1);
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].kind, "append-existing");
  EXPECT_NE(r.issues[0].message.find("Could not append to config. An item is already at 'a.x'."), std::string::npos);
}

TEST(HydraApply, ForceAddAndDelete) {
  auto cfg = base();
  auto r = apply_overrides(cfg, ovs({"++a.x=9", "++b.c=1", "~a.d", "~l", "~a.n", "~a.x=1"}), nullptr);
  EXPECT_EQ(cfg["b"]["c"], 1);
  EXPECT_FALSE(cfg["a"].contains("d"));
  EXPECT_FALSE(cfg.contains("l"));
  ASSERT_EQ(r.issues.size(), 2u);
  EXPECT_EQ(r.issues[0].kind, "delete-missing");  // null value: "does not exist"
  EXPECT_EQ(r.issues[1].kind, "delete-mismatch");  // a.x is 9, not 1
  EXPECT_EQ(cfg["a"]["x"], 9);
}

TEST(HydraApply, DictMergesListReplaces) {
  auto cfg = base();
  auto r = apply_overrides(cfg, ovs({"a.d={p:2}", "l=[3]", "a.d={q:1}"}), nullptr);
  EXPECT_EQ(cfg["a"]["d"]["p"], 2);
  EXPECT_EQ(cfg["l"], json({3}));
  ASSERT_EQ(r.issues.size(), 1u);  // merging a new key into a struct dict fails
}

TEST(HydraApply, OracleDecidesForPartialTrees) {
  auto cfg = json::object();
  auto oracle = [](const std::string& k) {
    if (k == "known") return KeyTruth::exists;
    if (k == "gone") return KeyTruth::absent;
    return KeyTruth::unknown;
  };
  auto r = apply_overrides(cfg, ovs({"known=1", "gone=2", "other.x=3", "+known=4"}), oracle);
  EXPECT_EQ(cfg["known"], 1);
  EXPECT_FALSE(cfg.contains("gone"));
  EXPECT_EQ(cfg["other"]["x"], 3);
  ASSERT_EQ(r.unverified.size(), 1u);
  ASSERT_EQ(r.issues.size(), 2u);
  EXPECT_EQ(r.issues[0].kind, "missing-key");
  EXPECT_EQ(r.issues[1].kind, "append-existing");
}
