// The confirmation pass (analyze/cluster/confirm.h): suspects of the round-robin matrix measured
// again alone, next to reference pairs between healthy nodes. Shaped like the 16-namespace sweep
// on 2 cores (docs/CLUSTER.md): under 8 concurrent streams a healthy pair can read 20–40 % slow;
// alone every healthy pair gets the 50 Mbit/s of its htb shaping and a planted slow link keeps its
// deficit.
#include "analyze/cluster/confirm.h"

#include <gtest/gtest.h>

#include <map>

#include "analyze/cluster/isolation.h"
#include "support/net_matrix_synth.h"

using namespace ncdx;
using analyze::ConfirmPair;
using analyze::NetOutlier;
using ncdx::testing::scale_link;
using ncdx::testing::synthetic_matrix;

namespace {

int count_role(const std::vector<ConfirmPair>& plan, const std::string& role) {
  int k = 0;
  for (const auto& p : plan) k += p.role == role;
  return k;
}

// 8 nodes under contention, node 4 30 % slow on every pair: one slow-node suspect.
measure::NetMatrix slow_node_4() {
  auto busy = synthetic_matrix(8, 0.04, 0.05, 5);
  for (int j = 0; j < 8; ++j)
    if (j != 4) scale_link(busy, 4, j, 0.7);
  return busy;
}

}  // namespace

TEST(Confirm, ContentionThatVanishesAloneIsNotConfirmed) {
  auto busy = synthetic_matrix(8, 0.04, 0.05, 1);
  scale_link(busy, 2, 5, 0.7);  // a neighbour's stream took 30 % of this pair's CPU
  auto out = analyze::isolate_outliers(busy);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].kind, "slow-link");
  auto plan = analyze::plan_confirmation(busy, out);
  EXPECT_EQ(count_role(plan, "reference"), 3);
  ASSERT_EQ(count_role(plan, "suspect"), 1);
  for (const auto& p : plan) EXPECT_LT(p.a, p.b);
  auto alone = synthetic_matrix(8, 0.048, 0.02, 2);  // alone: every pair near the shaped rate
  analyze::apply_confirmation(out, alone, plan);
  ASSERT_TRUE(out[0].confirmed.has_value());
  EXPECT_FALSE(*out[0].confirmed) << out[0].evidence;
  EXPECT_NE(out[0].evidence.find("not confirmed"), std::string::npos);
  ASSERT_TRUE(out[0].alone_value && out[0].alone_median);
}

TEST(Confirm, SlowLinkThatStaysSlowAloneIsConfirmed) {
  auto busy = synthetic_matrix(8, 0.04, 0.05, 3);
  scale_link(busy, 1, 6, 0.7);
  auto out = analyze::isolate_outliers(busy);
  ASSERT_EQ(out.size(), 1u);
  auto plan = analyze::plan_confirmation(busy, out);
  auto alone = synthetic_matrix(8, 0.048, 0.02, 4);
  scale_link(alone, 1, 6, 0.905);  // a 10 % slow link reads ~9.5 % under alone: over the 6 % floor
  analyze::apply_confirmation(out, alone, plan);
  ASSERT_TRUE(out[0].confirmed.has_value());
  EXPECT_TRUE(*out[0].confirmed) << out[0].evidence;
}

TEST(Confirm, SlowNodeIsRetestedAgainstHealthyReferenceNodes) {
  auto busy = slow_node_4();
  auto out = analyze::isolate_outliers(busy);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].kind, "slow-node");
  auto plan = analyze::plan_confirmation(busy, out);
  ASSERT_EQ(count_role(plan, "suspect"), 3);  // the node with 3 healthy reference nodes
  for (const auto& p : plan)
    if (p.role == "suspect") {
      EXPECT_TRUE(p.a == 4 || p.b == 4);
    }
  for (double alone_factor : {0.75, 1.0}) {
    auto o = out;
    auto alone = synthetic_matrix(8, 0.048, 0.02, 6);
    for (int j = 0; j < 8; ++j)
      if (j != 4) scale_link(alone, 4, j, alone_factor);
    analyze::apply_confirmation(o, alone, plan);
    ASSERT_TRUE(o[0].confirmed.has_value());
    EXPECT_EQ(*o[0].confirmed, alone_factor < 1) << o[0].evidence;
  }
}

// A node suspect the median of its pairs clears alone, with one pair still slow alone: that pair is
// a slow link (a slow link plus a pair its neighbours slowed made it look like a node).
TEST(Confirm, OnePairOfAClearedNodeThatStaysSlowAloneIsASlowLink) {
  auto busy = slow_node_4();
  auto out = analyze::isolate_outliers(busy);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].kind, "slow-node");
  auto plan = analyze::plan_confirmation(busy, out);
  const ConfirmPair* first = nullptr;
  for (const auto& p : plan)
    if (p.role == "suspect" && !first) first = &p;
  ASSERT_TRUE(first);
  auto alone = synthetic_matrix(8, 0.048, 0.02, 6);
  scale_link(alone, first->a, first->b, 0.75);
  analyze::apply_confirmation(out, alone, plan);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_FALSE(out[0].confirmed.value_or(true)) << out[0].evidence;
  EXPECT_EQ(out[1].kind, "slow-link");
  EXPECT_EQ(out[1].hosts, (std::vector<std::string>{alone.hosts[first->a], alone.hosts[first->b]}));
  EXPECT_TRUE(out[1].confirmed.value_or(false)) << out[1].evidence;
  // Every pair healthy alone: nothing but the cleared node.
  auto o = analyze::isolate_outliers(busy);
  analyze::apply_confirmation(o, synthetic_matrix(8, 0.048, 0.02, 6), plan);
  EXPECT_EQ(o.size(), 1u);
}

TEST(Confirm, BudgetBoundsThePassAndSaysWhatWasLeftOut) {
  auto busy = synthetic_matrix(10, 0.04, 0.05, 7);
  scale_link(busy, 1, 2, 0.6);
  scale_link(busy, 3, 4, 0.5);  // the worse one: re-measured first
  auto out = analyze::isolate_outliers(busy);
  ASSERT_EQ(out.size(), 2u);
  const int mild = out[0].hosts[0] == "n1" ? 0 : 1, worst = 1 - mild;
  ASSERT_EQ(out[mild].hosts, (std::vector<std::string>{"n1", "n2"}));
  analyze::ConfirmOptions opt;
  opt.max_pairs = 4;  // 3 references + 1 suspect
  auto plan = analyze::plan_confirmation(busy, out, opt);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan.back().outlier, worst);
  // Alone the worse link stays slow: it is confirmed, and the milder one, left out, stays unjudged.
  auto alone = synthetic_matrix(10, 0.048, 0.02, 8);
  scale_link(alone, 3, 4, 0.5);
  analyze::apply_confirmation(out, alone, plan, opt);
  EXPECT_EQ(out[worst].confirmed, std::optional<bool>(true)) << out[worst].evidence;
  EXPECT_FALSE(out[mild].confirmed.has_value());
  EXPECT_NE(out[mild].evidence.find("not re-measured"), std::string::npos) << out[mild].evidence;
  opt.max_pairs = 3;  // only references would fit: no pass at all
  EXPECT_TRUE(analyze::plan_confirmation(busy, out, opt).empty());
  opt.max_pairs = 0;
  EXPECT_TRUE(analyze::plan_confirmation(busy, out, opt).empty());
}

TEST(Confirm, NothingToConfirmOrNoHealthyReference) {
  auto m = synthetic_matrix(8, 0.04, 0.05, 9);
  EXPECT_TRUE(analyze::plan_confirmation(m, {}).empty());
  // Unreachable and lossy nodes are not re-measured.
  std::vector<NetOutlier> dead = {{"unreachable", {"n3"}, "reachability", 7.0, 7.0, "x"}};
  EXPECT_TRUE(analyze::plan_confirmation(m, dead).empty());
  // 3 nodes, two of them named slow: one node left, no reference pair.
  auto small = synthetic_matrix(3, 0.04, 0.0, 10);
  std::vector<NetOutlier> o = {{"slow-node", {"n2"}, "bandwidth_gbps", 0.02, 0.04, "x"},
                               {"slow-node", {"n1"}, "bandwidth_gbps", 0.02, 0.04, "x"}};
  EXPECT_TRUE(analyze::plan_confirmation(small, o).empty());
  // A node on a suspect link still serves as a reference (a loaded cluster has false links on
  // nearly every node), the least-named first.
  std::vector<NetOutlier> links = {{"slow-link", {"n0", "n1"}, "bandwidth_gbps", 0.02, 0.04, "x"},
                                   {"slow-link", {"n0", "n2"}, "bandwidth_gbps", 0.02, 0.04, "x"}};
  auto plan = analyze::plan_confirmation(small, links);
  ASSERT_FALSE(plan.empty());
  EXPECT_EQ(plan[0].role, "reference");
  EXPECT_EQ(plan[0].a, 1);
  EXPECT_EQ(plan[0].b, 2);
}

TEST(Confirm, SuspectThatFailsAloneIsConfirmed) {
  auto busy = synthetic_matrix(8, 0.04, 0.05, 11);
  scale_link(busy, 2, 3, 0.6);
  auto out = analyze::isolate_outliers(busy);
  ASSERT_EQ(out.size(), 1u);
  auto plan = analyze::plan_confirmation(busy, out);
  auto alone = synthetic_matrix(8, 0.048, 0.02, 12);
  alone.cell[2][3].status = "timeout";
  alone.cell[2][3].detail = "stream: timed out";
  analyze::apply_confirmation(out, alone, plan);
  ASSERT_TRUE(out[0].confirmed.has_value());
  EXPECT_TRUE(*out[0].confirmed) << out[0].evidence;
  EXPECT_NE(out[0].evidence.find("failed"), std::string::npos);
}

TEST(Confirm, LossyLinkNeedsLossEvidenceAlone) {
  auto busy = synthetic_matrix(8, 0.04, 0.05, 13);
  std::vector<NetOutlier> out = {{"lossy-link", {"n2", "n6"}, "latency_p99_us", 150e3, std::nullopt, "3 stalls"}};
  auto plan = analyze::plan_confirmation(busy, out);
  ASSERT_EQ(count_role(plan, "suspect"), 1);
  for (int stalls : {0, 2}) {
    auto o = out;
    auto alone = synthetic_matrix(8, 0.048, 0.02, 14);
    alone.cell[2][6].stalls = stalls;
    analyze::apply_confirmation(o, alone, plan);
    ASSERT_TRUE(o[0].confirmed.has_value());
    EXPECT_EQ(*o[0].confirmed, stalls > 0) << o[0].evidence;
  }
}

// 32 namespace hosts on 2 cores at load 29 (docs/CLUSTER.md): 33 false slow links, room for 9.
// The pass re-measures the worst; those it clears vouch for the milder ones it had no room for,
// and a suspect worse than every cleared one stays named.
TEST(Confirm, SuspectsLeftOutAreJudgedByTheWorstClearedOne) {
  auto busy = synthetic_matrix(12, 0.04, 0.02, 11);
  scale_link(busy, 1, 2, 0.75);
  scale_link(busy, 3, 4, 0.70);
  scale_link(busy, 5, 6, 0.65);  // the worst: re-measured, healthy alone
  scale_link(busy, 7, 8, 0.5);   // not in the plan below, and worse than every cleared one
  auto out = analyze::isolate_outliers(busy);
  ASSERT_EQ(out.size(), 4u);
  std::map<std::string, int> at;
  for (int k = 0; k < 4; ++k) at[out[k].hosts[0]] = k;
  analyze::ConfirmOptions opt;
  opt.max_pairs = 4;  // 3 references + the worst suspect (n7<->n8)
  auto plan = analyze::plan_confirmation(busy, out, opt);
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan.back().outlier, at["n7"]);
  // Make the plan re-measure n5<->n6 instead: the worst left out must stay named.
  plan.back() = {5, 6, "suspect", at["n5"]};
  auto alone = synthetic_matrix(12, 0.048, 0.02, 12);
  analyze::apply_confirmation(out, alone, plan, opt);
  EXPECT_EQ(out[at["n5"]].confirmed, std::optional<bool>(false)) << out[at["n5"]].evidence;
  for (const char* h : {"n1", "n3"}) {
    const auto& o = out[at[h]];
    EXPECT_EQ(o.confirmed, std::optional<bool>(false)) << h << ": " << o.evidence;
    EXPECT_NE(o.evidence.find("n5<->n6 looked worse"), std::string::npos) << o.evidence;
  }
  EXPECT_FALSE(out[at["n7"]].confirmed.has_value()) << out[at["n7"]].evidence;
}
