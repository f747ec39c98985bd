// Loss that the retransmit ratio misses (loss_evidence.h): timer stalls of the ping-pong judged
// per row. Synthetic matrices shaped like the netns sweep at 50 Mbit/s (docs/CLUSTER.md): a
// 1–4 % lossy node retransmits 0.1–0.4 % of a pair's segments (under the 0.5 % rule) but stalls
// some of its 100 ping round trips on the 200 ms TCP timer.
#include "analyze/cluster/isolation.h"
#include "analyze/cluster/loss_evidence.h"

#include <gtest/gtest.h>

#include "support/net_matrix_synth.h"
#include "support/outlier_names.h"

using namespace ncdx;
using analyze::isolate_outliers;
using analyze::NetOutlier;

namespace {

// Healthy: median ~30 µs, p99 ~60 µs, 0.05 Gb/s ±5 %, one background retransmit in 2000 segments.
measure::NetMatrix healthy(int n, unsigned seed) { return ncdx::testing::synthetic_matrix(n, 0.05, 0.05, seed); }

using ncdx::testing::add_stalls;
using ncdx::testing::client_cell;

std::string names(const std::vector<NetOutlier>& o) { return ncdx::testing::outlier_names(o); }

}  // namespace

TEST(LossEvidence, RowTestNeedsTheRowAndAQuietRest) {
  // 4 nodes, node 2's three pairs bad, the rest quiet: node 2 only.
  std::vector<analyze::PairMark> p;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) p.push_back({a, b, true, a == 2 || b == 2});
  EXPECT_EQ(analyze::rows_that_stand_out(4, p), (std::vector<bool>{false, false, true, false}));
  // Every pair bad (a loaded cluster where everything spikes): nobody stands out.
  for (auto& x : p) x.bad = true;
  EXPECT_EQ(analyze::rows_that_stand_out(4, p), (std::vector<bool>(4, false)));
  // One bad pair: two nodes with one bad pair each, under the minimum of 2.
  for (auto& x : p) x.bad = x.a == 0 && x.b == 1;
  EXPECT_EQ(analyze::rows_that_stand_out(4, p), (std::vector<bool>(4, false)));
}

TEST(LossEvidence, PairEvidenceKinds) {
  auto m = healthy(4, 1);
  EXPECT_FALSE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05).any());
  m.cell[0][1].stalls = 1;
  EXPECT_EQ(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05).stalls, 1);
  m.cell[0][1].stalls = 0;
  m.cell[0][1].lat_p99_us = 150e3;  // a matrix without stall counts (older JSON)
  EXPECT_TRUE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05).p99_stall);
  m.cell[0][1].lat_p99_us = 5e3;  // 5 ms: scheduling on a loaded host, not a timer
  EXPECT_FALSE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05).any());
  m.cell[0][1].samples = 37;  // the ping-pong ran out of its share of the budget
  EXPECT_TRUE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05).cut_short);
  EXPECT_TRUE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05, {}, 4.0).cut_short);  // 37 × 60 µs: stalls
  // A 20 ms round trip (10 ms one-way): 75 samples took 1.5 s of the 1.6 s share: latency, not loss.
  m.cell[0][1].samples = 75;
  m.cell[0][1].lat_median_us = 10e3;
  m.cell[0][1].lat_p99_us = 11e3;
  EXPECT_FALSE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05, {}, 4.0).any());
  EXPECT_TRUE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.05).cut_short);  // budget unknown: as before
  m.cell[0][1].lat_median_us = 30;
  m.cell[0][1].lat_p99_us = 60;
  m.cell[0][1].samples = 100;
  m.cell[0][1].retrans = 6;  // 0.15 % of 4000: under the 0.5 % rule, 3× the 0.025 % reference
  EXPECT_TRUE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.025).retrans_up);
  EXPECT_FALSE(analyze::pair_loss(m.cell[0][1], m.cell[1][0], 100, 0.1).retrans_up);
}

// The sweep's miss: a lossy node whose retransmits stay under the 0.5 % rule, named as nothing.
// Six of its seven pairs stall on the timer (one pair got lucky), some also retransmit more.
TEST(LossEvidence, LossyNodeFromTimerStalls) {
  for (unsigned seed = 0; seed < 20; ++seed) {
    auto m = healthy(8, seed);
    const int v = 1 + static_cast<int>(seed % 7);
    int k = 0;
    for (int j = 0; j < 8; ++j) {
      if (j == v) continue;
      if (k++ == static_cast<int>(seed % 7)) continue;  // the lucky pair
      add_stalls(m, v, j, 1 + (j % 3));
      m.cell[v][j].retrans = 4;  // 0.1 %: far under the 0.5 % rule
      *m.cell[v][j].gbps *= 0.85;  // loss also costs bandwidth: still one lossy node, not slow links
    }
    auto o = isolate_outliers(m);
    ASSERT_EQ(o.size(), 1u) << "seed " << seed << ": " << names(o);
    EXPECT_EQ(o[0].kind, "lossy-node");
    EXPECT_EQ(o[0].hosts, std::vector<std::string>{"n" + std::to_string(v)});
    EXPECT_NE(o[0].evidence.find("6 of 7 links"), std::string::npos) << o[0].evidence;
  }
}

// A matrix from older JSON (no stall count): the p99 alone carries the timer.
TEST(LossEvidence, LossyNodeFromP99WithoutStallCounts) {
  auto m = healthy(6, 3);
  for (int j = 0; j < 6; ++j)
    if (j != 4) client_cell(m, 4, j).lat_p99_us = 210e3;
  auto o = isolate_outliers(m);
  ASSERT_EQ(o.size(), 1u) << names(o);
  EXPECT_EQ(o[0].kind, "lossy-node");
  EXPECT_EQ(o[0].hosts, std::vector<std::string>{"n4"});
}

// A lossy link between two good nodes: several stalls AND elevated retransmits on that pair.
TEST(LossEvidence, LossyLinkNeedsStallsAndRetransmits) {
  auto m = healthy(8, 4);
  add_stalls(m, 2, 5, 4);
  m.cell[2][5].retrans = 8;
  auto o = isolate_outliers(m);
  ASSERT_EQ(o.size(), 1u) << names(o);
  EXPECT_EQ(o[0].kind, "lossy-link");
  EXPECT_EQ(o[0].hosts, (std::vector<std::string>{"n2", "n5"}));
  m.cell[2][5].retrans = 0;  // stalls alone: a loaded host can do that once; no alarm
  EXPECT_TRUE(isolate_outliers(m).empty()) << names(isolate_outliers(m));
}

// Healthy noisy clusters: timer-length spikes and a few extra retransmits on 10 % of random
// pairs (a loaded host), 200 matrices of 8 nodes. None may alarm.
TEST(LossEvidence, SporadicSpikesOnRandomPairsDoNotAlarm) {
  std::mt19937 rng(77);
  std::bernoulli_distribution hit(0.10), retr(0.5);
  std::uniform_int_distribution<int> stalls(1, 2);
  int spiked = 0;
  for (unsigned t = 0; t < 200; ++t) {
    auto m = healthy(8, 1000 + t);
    for (int a = 0; a < 8; ++a)
      for (int b = a + 1; b < 8; ++b)
        if (hit(rng)) {
          ++spiked;
          add_stalls(m, a, b, stalls(rng));
          if (retr(rng)) m.cell[a][b].retrans = 3;
        }
    auto o = isolate_outliers(m);
    EXPECT_TRUE(o.empty()) << "matrix " << t << ": " << names(o);
  }
  EXPECT_GT(spiked, 200 * 28 / 20);  // the spikes were there (≥ 5 % of the pairs)
}

// A cluster under CPU load where most pairs spike: that is the cluster, not one node.
TEST(LossEvidence, EverythingSpikingBlamesNobody) {
  auto m = healthy(8, 5);
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b)
      if ((a * 7 + b) % 5 != 0) add_stalls(m, a, b, 1);
  auto o = isolate_outliers(m);
  EXPECT_TRUE(o.empty()) << names(o);
}

// A pair that ran out of its budget between two good nodes: a lossy link when its ping-pong
// stalled on the timer, nothing when it did not (a CPU-starved host, the 8-namespace run at
// load 6 in docs/CLUSTER.md); the timeout stays in the status matrix either way.
TEST(LossEvidence, TimedOutLinkIsLossyOnlyWithTimerEvidence) {
  auto m = healthy(8, 6);
  m.cell[1][6].status = "timeout";
  m.cell[1][6].detail = "peer stream: receive timed out";
  m.cell[1][6].lat_p99_us = 32e3;  // scheduling, not a 200 ms timer
  EXPECT_TRUE(isolate_outliers(m).empty()) << names(isolate_outliers(m));
  m.cell[1][6].stalls = 2;
  auto o = isolate_outliers(m);
  ASSERT_EQ(o.size(), 1u) << names(o);
  EXPECT_EQ(o[0].kind, "lossy-link");
  EXPECT_EQ(o[0].hosts, (std::vector<std::string>{"n1", "n6"}));
}

// A node 10 ms away (one-way) whose ping-pongs all ran out of their 1.6 s share: a slow node by
// latency, not a lossy one (the netns harness's delaynode:V:20 was named lossy-node before).
TEST(LossEvidence, SlowPingPongCutShortIsLatencyNotLoss) {
  auto m = healthy(8, 8);
  m.pair_budget_s = 4;
  for (int j = 0; j < 8; ++j) {
    if (j == 3) continue;
    auto& c = client_cell(m, 3, j);
    c.samples = 75;
    c.lat_median_us = 10e3;
    c.lat_p99_us = 11e3;
  }
  auto o = isolate_outliers(m);
  ASSERT_EQ(o.size(), 1u) << names(o);
  EXPECT_EQ(o[0].kind, "slow-node");
  EXPECT_EQ(o[0].metric, "latency_us");
  EXPECT_EQ(o[0].hosts, std::vector<std::string>{"n3"});
}
