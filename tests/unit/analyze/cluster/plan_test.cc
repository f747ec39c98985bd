// `ncdx doctor --plan`: the predicted pair time counts what measure/network/net_matrix.cc runs
// (warm-up + timed pings, kStreamsPerDirection streams each way with an ack each), and the
// schedule is the round-robin one (N−1 rounds of N/2 pairs for even N, N rounds for odd N).
#include <gtest/gtest.h>

#include "analyze/cluster/cluster_plan.h"

namespace ncdx {
namespace {

TEST(ClusterPlan, PairTimeCountsEveryStreamAtTheAssumedRate) {
  analyze::PlanOptions po;
  po.nodes = 8;
  po.net.bw_bytes = 1 << 20;
  po.net.ping_iters = 100;
  po.link_gbps = 0.05;  // the namespace harness's 50 Mbit/s htb links
  po.rtt_us = 50;
  auto p = analyze::plan_cluster(po);
  // 3 streams × 2 directions × 1 MiB at 50 Mbit/s = 1.007 s, + (105 + 3 + 6) round trips of 50 µs.
  double stream = (1 << 20) * 8 / 0.05e9 + 50e-6;
  EXPECT_NEAR(p.predicted_pair_s, 6 * stream + 108 * 50e-6, 1e-9);
  EXPECT_NEAR(p.predicted_pair_s, 1.013, 0.002);
  EXPECT_EQ(p.rounds, 7);
  EXPECT_EQ(p.pairs, 28);
  EXPECT_EQ(p.pairs_per_round, 4);
  EXPECT_NEAR(p.predicted_wall_s, 7 * (p.predicted_pair_s + po.round_overhead_s), 1e-9);
  EXPECT_DOUBLE_EQ(p.assumed_gbps, 0.05);
  EXPECT_DOUBLE_EQ(p.assumed_rtt_us, 50);
}

TEST(ClusterPlan, PairTimeNeverExceedsTheBudget) {
  analyze::PlanOptions po;
  po.nodes = 33;
  po.link_gbps = 0.001;  // 1 Mbit/s: 1 MiB would take 8 s per stream
  po.net.pair_budget_s = 4;
  auto p = analyze::plan_cluster(po);
  EXPECT_DOUBLE_EQ(p.predicted_pair_s, 4);
  EXPECT_EQ(p.rounds, 33);  // odd N: one node sits out each round
  EXPECT_NEAR(p.worst_wall_s, 33 * (4 + po.round_overhead_s), 1e-9);
}

TEST(ClusterPlan, RdmaPairCountsEveryRailOneAfterAnother) {
  analyze::PlanOptions po;
  po.nodes = 1024;
  po.net.transport = "rdma";
  po.net.ping_iters = 100;
  po.rails = 8;
  po.link_gbps = 400;  // per rail (8 × NDR)
  po.rtt_us = 5;
  auto p = analyze::plan_cluster(po);
  EXPECT_EQ(p.transport, "rdma");
  EXPECT_EQ(p.rails, 8);
  EXPECT_DOUBLE_EQ(p.rdma_mib, 64);
  // 4 round trips of handshake, then per rail 106 round trips (5 untimed, 100 timed, the end
  // marker) and 6 writes of 64 MiB at 400 Gb/s.
  double write = 64.0 * (1 << 20) * 8 / 400e9;
  EXPECT_NEAR(p.predicted_pair_s, 4 * 5e-6 + 8 * (106 * 5e-6 + 6 * write), 1e-12);
  EXPECT_NEAR(p.predicted_wall_s, 1023 * (p.predicted_pair_s + po.round_overhead_s), 1e-9);
  po.net.transport = "auto";  // planned as TCP: what auto picks is known only when the nodes answer
  EXPECT_EQ(analyze::plan_cluster(po).transport, "tcp");
}

}  // namespace
}  // namespace ncdx
