#include "analyze/cluster/consistency.h"

#include <gtest/gtest.h>

#include "support/cluster_snapshot.h"

using namespace ncdx;
using core::Outcome;
using analyze::ConsistencyResult;
using analyze::NodeSnapshot;

namespace {

NodeSnapshot node(const std::string& host) { return ncdx::testing::healthy_node(host); }

const ConsistencyResult& find(const std::vector<ConsistencyResult>& rs, const std::string& id) {
  for (const auto& r : rs)
    if (r.id == id) return r;
  static ConsistencyResult none;
  ADD_FAILURE() << "no result " << id;
  return none;
}

std::vector<NodeSnapshot> cluster(int n) {
  std::vector<NodeSnapshot> v;
  for (int i = 0; i < n; ++i) v.push_back(node("gpu" + std::to_string(i) + ".dc1"));
  return v;
}

}  // namespace

TEST(Consistency, HealthyClusterAllPass) {
  auto rs = analyze::check_consistency(cluster(5));
  for (const auto& r : rs) {
    EXPECT_NE(r.status, core::Outcome::fail) << r.id << ": " << r.evidence;
    EXPECT_NE(r.status, core::Outcome::warn) << r.id << ": " << r.evidence;
    EXPECT_TRUE(r.deviating.empty()) << r.id;
  }
  EXPECT_EQ(find(rs, "versions.nccl").majority, "2.21.5");
}

TEST(Consistency, NamesTheOddNodeAgainstTheMajority) {
  auto c = cluster(6);
  c[4].inventory.nccl_libs[0].version = "2.18.3";
  c[2].inventory.net[0].mtu = 1500;
  c[5].inventory.env["NCCL_IB_HCA"] = "mlx5_0";
  c[1].inventory.env["NCCL_ALGO"] = "Ring";
  auto rs = analyze::check_consistency(c);
  const auto& nccl = find(rs, "versions.nccl");
  EXPECT_EQ(nccl.status, core::Outcome::fail);
  EXPECT_EQ(nccl.deviating, std::vector<std::string>{"gpu4.dc1"});
  EXPECT_EQ(nccl.majority, "2.21.5");
  const auto& mtu = find(rs, "net.mtu");
  EXPECT_EQ(mtu.status, core::Outcome::fail);
  EXPECT_EQ(mtu.deviating, std::vector<std::string>{"gpu2.dc1"});
  EXPECT_EQ(find(rs, "env.NCCL_IB_HCA").deviating, std::vector<std::string>{"gpu5.dc1"});
  const auto& algo = find(rs, "env.NCCL_ALGO");  // set on one node only: "(unset)" is the majority
  EXPECT_EQ(algo.deviating, std::vector<std::string>{"gpu1.dc1"});
  EXPECT_EQ(algo.majority, "(unset)");
  // Nothing else is blamed.
  for (const auto& r : rs)
    if (r.id != "versions.nccl" && r.id != "net.mtu" && r.id != "env.NCCL_IB_HCA" && r.id != "env.NCCL_ALGO") {
      EXPECT_TRUE(r.deviating.empty()) << r.id << ": " << r.evidence;
    }
}

TEST(Consistency, TieHasNoMajorityAndNamesEveryone) {
  auto r = analyze::judge_values("x", "x", core::Outcome::fail, {"a", "b", "c", "d"},
                                 {std::string("1"), std::string("1"), std::string("2"), std::string("2")}, "fix");
  EXPECT_EQ(r.status, core::Outcome::fail);
  EXPECT_FALSE(r.majority);
  EXPECT_EQ(r.deviating.size(), 4u);
}

TEST(Consistency, UnknownIsAWarningNotAFailure) {
  auto r = analyze::judge_values("x", "x", core::Outcome::fail, {"a", "b", "c"},
                                 {std::string("1"), std::string("1"), std::nullopt}, "fix");
  EXPECT_EQ(r.status, core::Outcome::warn);
  EXPECT_EQ(r.deviating, std::vector<std::string>{"c"});
  auto all_unknown = analyze::judge_values("x", "x", core::Outcome::fail, {"a", "b"}, {std::nullopt, std::nullopt}, "");
  EXPECT_EQ(all_unknown.status, core::Outcome::skip);
}

TEST(Consistency, DuplicateShortHostnames) {
  auto c = cluster(4);
  c[3].host = "gpu1.dc2";  // short name gpu1 twice
  auto rs = analyze::check_consistency(c);
  const auto& u = find(rs, "host.unique");
  EXPECT_EQ(u.status, core::Outcome::fail);
  EXPECT_EQ(u.deviating, (std::vector<std::string>{"gpu1.dc1", "gpu1.dc2"}));
}

TEST(Consistency, ClockSkewAgainstTheMedianNotRankZero) {
  auto c = cluster(5);
  c[0].clock_offset_us = 0;
  c[1].clock_offset_us = 2e6;  // 2 s ahead
  auto rs = analyze::check_consistency(c);
  const auto& k = find(rs, "clock.skew");
  EXPECT_EQ(k.status, core::Outcome::warn);
  EXPECT_EQ(k.deviating, std::vector<std::string>{"gpu1.dc1"});
}

TEST(Consistency, MtuComparedAcrossDifferentInterfaceNames) {
  auto c = cluster(3);
  c[1].inventory.net[0].name = "ens1f0";  // same MTU, another name: consistent
  auto rs = analyze::check_consistency(c);
  EXPECT_EQ(find(rs, "net.mtu").status, core::Outcome::pass);
}
