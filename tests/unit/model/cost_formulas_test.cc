// NCCL's tuning formulas against values computed by hand from NCCL's source (the arithmetic is
// written next to each expectation; tables from knowledge/data/nccl_tuning.yaml). Graphs are
// given explicitly so these test ncclTopoTuneModel / ncclTopoGetAlgoTime, not our search.
#include <gtest/gtest.h>

#include "model/cost/algo_enable.h"
#include "model/cost/predict.h"
#include "support/model_graph.h"

using namespace ncdx::model::cost;

namespace {

using ncdx::model::cost::testing::graph;

Options with_graphs(Graph ring, Graph tree, Graph nvls = {}) {
  Options o;
  Graphs g{};
  g[static_cast<int>(Algo::Ring)] = ring;
  g[static_cast<int>(Algo::Tree)] = tree;
  g[static_cast<int>(Algo::Pat)] = tree;
  g[static_cast<int>(Algo::Nvls)] = nvls;
  g[static_cast<int>(Algo::NvlsTree)] = nvls;
  o.graphs = g;
  return o;
}

ClusterSpec dgx_h100(int nodes) {
  ClusterSpec s;
  s.nodes = nodes;
  s.gpus_per_node = 8;
  s.sm = 90;
  s.nvlink_links = 18;
  s.nvswitch = true;
  s.nics_per_node = nodes > 1 ? 8 : 0;
  s.nic_gbit = 400;
  s.pcie_gbps = 48;
  return s;
}

}  // namespace

TEST(CostFormulas, SingleNodeRing_2_27) {
  auto o = with_graphs(graph(12, 30, 30, PathType::NVL, PathType::LOC), graph(12, 30, 30, PathType::NVL, PathType::LOC, 1));
  auto spec = dgx_h100(1);
  spec.nvls = false;
  auto m = Model::build(spec, {2, 27, 7}, o);
  ASSERT_TRUE(m.ok()) << m.status().message();
  auto AR = Collective::AllReduce;
  // Ring Simple: busBw = 12*30 = 360, x n/nsteps = 8/14 -> 205.714; lat = 8.4 + 14 * 3.4 = 56.0
  EXPECT_NEAR(m->bandwidth(AR, Algo::Ring, Proto::Simple), 360.0 * 8 / 14, 1e-9);
  EXPECT_NEAR(m->latency(AR, Algo::Ring, Proto::Simple), 56.0, 1e-9);
  // Ring LL: min(llMaxBws[Hopper][N1] = 141, 360 * .5) = 141 -> x 8/14; lat = 6.6 + 14 * 0.6 = 15.0
  EXPECT_NEAR(m->bandwidth(AR, Algo::Ring, Proto::LL), 141.0 * 8 / 14, 1e-9);
  EXPECT_NEAR(m->latency(AR, Algo::Ring, Proto::LL), 15.0, 1e-9);
  // Ring LL128 (on: NVL intra, sm90): min(360 * .92, 12 * 36.7) = 331.2 -> x 8/14; lat = 14 + 14 * 1.9
  EXPECT_NEAR(m->bandwidth(AR, Algo::Ring, Proto::LL128), 331.2 * 8 / 14, 1e-9);
  EXPECT_NEAR(m->latency(AR, Algo::Ring, Proto::LL128), 14.0 + 14 * 1.9, 1e-9);
  // Tree Simple: min(360 * .92, 12 * 38.7) = 331.2, x .5 = 165.6; lat = 8.4 + 2 * (7 * 4.0) = 64.4
  EXPECT_NEAR(m->bandwidth(AR, Algo::Tree, Proto::Simple), 165.6, 1e-9);
  EXPECT_NEAR(m->latency(AR, Algo::Tree, Proto::Simple), 64.4, 1e-9);
  // AllGather Ring Simple: 360 x n/(n-1) = 8/7; Broadcast ring: x 1, lat = 8.4 + 3.4 (sameChannels)
  EXPECT_NEAR(m->bandwidth(Collective::AllGather, Algo::Ring, Proto::Simple), 360.0 * 8 / 7, 1e-9);
  EXPECT_NEAR(m->latency(Collective::Broadcast, Algo::Ring, Proto::Simple), 8.4 + 3.4, 1e-9);
  // 1 GiB all-reduce: Ring Simple 56 + 2^30 / (1000 * 205.714) = 5275.6 us beats Tree and LL*.
  auto p = m->predict(AR, 1ull << 30);
  ASSERT_TRUE(p.available);
  EXPECT_EQ(p.algo, Algo::Ring);
  EXPECT_EQ(p.proto, Proto::Simple);
  EXPECT_NEAR(p.time_us, 56.0 + 1073741824.0 / (1000 * 360.0 * 8 / 14), 1e-6);
  EXPECT_NEAR(p.busbw_gbps, 1073741824.0 / (1000 * p.time_us) * 14 / 8, 1e-9);
  // 8 B: LL wins on latency (15.0 + 8/(1000*80.6) vs 40.6 LL128, 56 Simple).
  auto s = m->predict(AR, 8);
  EXPECT_EQ(s.algo, Algo::Ring);
  EXPECT_EQ(s.proto, Proto::LL);
  EXPECT_EQ(s.nchannels, 1);  // 8 B < nc * 512 threads * 8*nRanks B: channels drop to 1
}

TEST(CostFormulas, TwoNodeRing_2_18) {
  auto o = with_graphs(graph(8, 24, 24, PathType::NVL, PathType::PXB), graph(8, 24, 24, PathType::NVL, PathType::PXB, 1));
  auto m = Model::build(dgx_h100(2), {2, 18, 6}, o);
  ASSERT_TRUE(m.ok());
  auto AR = Collective::AllReduce;
  // N <= 2: bw = bwIntra = 24; busBw = 192; ratio 16/30 -> 102.4
  EXPECT_NEAR(m->bandwidth(AR, Algo::Ring, Proto::Simple), 102.4, 1e-9);
  // 2.18 nInterSteps = 2N = 4; intraLat = max(3.4, netOverhead 1 x 3) = 3.4; interLat = 14
  // lat = 8.4 + (30 - 4) * 3.4 + 4 * 14 = 152.8
  EXPECT_NEAR(m->latency(AR, Algo::Ring, Proto::Simple), 152.8, 1e-9);
  // Tree Simple: base 0 (2.18) + 2 * ((16/2 - 1) * 4 + log2(2) * 14) = 84
  EXPECT_NEAR(m->latency(AR, Algo::Tree, Proto::Simple), 84.0, 1e-9);
  // Ring LL (2.18, N > 1): min(llMaxBws[Intel][N2] = 39, 192 / 4 = 48) = 39 x 16/30
  EXPECT_NEAR(m->bandwidth(AR, Algo::Ring, Proto::LL), 39.0 * 16 / 30, 1e-9);
  // NVLS is Simple-only and needs collnet across nodes: 0.
  EXPECT_EQ(m->bandwidth(AR, Algo::Nvls, Proto::Simple), 0.0);
  // 2.18: only Ring for AllGather.
  EXPECT_EQ(m->bandwidth(Collective::AllGather, Algo::Tree, Proto::Simple), 0.0);
}

TEST(CostFormulas, NvlsSingleNode_2_30_vs_2_27) {
  Graph nv = graph(8, 40, 60, PathType::NVL, PathType::LOC, 5);
  auto o = with_graphs(graph(12, 30, 30, PathType::NVL, PathType::LOC), graph(12, 30, 30, PathType::NVL, PathType::LOC, 1), nv);
  auto AR = Collective::AllReduce;
  auto m30 = Model::build(dgx_h100(1), {2, 30, 7}, o);
  ASSERT_TRUE(m30.ok());
  // 2.30: intraBw = 40 * .85 * 7/8 * 2 = 59.5; bw = min(59.5, 60) = 59.5; busBw = 476; x 8/14
  EXPECT_NEAR(m30->bandwidth(AR, Algo::Nvls, Proto::Simple), 476.0 * 8 / 14, 1e-6);
  EXPECT_NEAR(m30->latency(AR, Algo::Nvls, Proto::Simple), 25.0, 1e-9);  // lat = intraLat (NVLINK NVLS)
  auto m27 = Model::build(dgx_h100(1), {2, 27, 7}, o);
  ASSERT_TRUE(m27.ok());
  // 2.27: bw = min(bwIntra, bwInter) = 40; busBw = 320; x 5/6
  EXPECT_NEAR(m27->bandwidth(AR, Algo::Nvls, Proto::Simple), 320.0 * 5 / 6, 1e-6);
  // NVLSTree is off on one node.
  EXPECT_EQ(m30->bandwidth(AR, Algo::NvlsTree, Proto::Simple), 0.0);
  // NVLS is chosen for 1 GiB on both (272 GB/s and 266.7 GB/s algbw beat the ring's 205.7).
  EXPECT_EQ(m30->predict(AR, 1ull << 30).algo, Algo::Nvls);
  EXPECT_EQ(m27->predict(AR, 1ull << 30).algo, Algo::Nvls);
}

// In-family differences found by the NCCL tuning oracle (bench/nccl_tuning_oracle, docs/MODEL.md
// Validation (a), 2026-12-07); expected values are NCCL's own ncclTopoTuneModel output for these
// graphs at each tag, the arithmetic written out from that tag's tuning.cc.
TEST(CostFormulas, NvlsAllGatherBefore_2_27) {
  Graph nv = graph(8, 40, 60, PathType::NVL, PathType::LOC, 5);
  auto o = with_graphs(graph(12, 30, 30, PathType::NVL, PathType::LOC), graph(12, 30, 30, PathType::NVL, PathType::LOC, 1), nv);
  auto AG = Collective::AllGather, RS = Collective::ReduceScatter;
  auto bw = [&](NcclVersion v, Collective c) {
    auto m = Model::build(dgx_h100(1), v, o);
    return m.ok() ? m->bandwidth(c, Algo::Nvls, Proto::Simple) : -1.0;
  };
  // 2.27.3+: min(40 * 7/8, 60 * .9) = 35 per channel, 8 channels, no algbw ratio (tuning.cc:267-273).
  EXPECT_NEAR(bw({2, 27, 7}, AG), 280.0, 1e-4);
  // 2.23-2.26: min(bwIntra, bwInter) = 40 for every collective (tuning.cc:251 @v2.26.6-1): 320.
  EXPECT_NEAR(bw({2, 26, 6}, AG), 320.0, 1e-4);
  EXPECT_NEAR(bw({2, 23, 4}, RS), 320.0, 1e-4);
  // 2.19-2.22 also convert NVLS AllGather/ReduceScatter with 5/6 (tuning.cc:213 @v2.21.5-1).
  EXPECT_NEAR(bw({2, 21, 5}, AG), 320.0 * 5 / 6, 1e-4);
  EXPECT_NEAR(bw({2, 19, 1}, RS), 320.0 * 5 / 6, 1e-4);
}

TEST(CostFormulas, Release_2_18_1) {
  Graph nv = graph(8, 40, 60, PathType::NVL, PathType::LOC, 5);
  auto o = with_graphs(graph(12, 30, 30, PathType::NVL, PathType::LOC), graph(12, 30, 30, PathType::NVL, PathType::LOC, 3), nv);
  auto AR = Collective::AllReduce;
  auto m1 = Model::build(dgx_h100(1), {2, 18, 1}, o);
  auto m6 = Model::build(dgx_h100(1), {2, 18, 6}, o);
  ASSERT_TRUE(m1.ok() && m6.ok());
  // NVLS: 8 * 40 = 320 x 3/4 (2.18.1, tuning.cc:187) or x 5/6 (2.18.3+).
  EXPECT_NEAR(m1->bandwidth(AR, Algo::Nvls, Proto::Simple), 240.0, 1e-9);
  EXPECT_NEAR(m6->bandwidth(AR, Algo::Nvls, Proto::Simple), 320.0 * 5 / 6, 1e-9);
  // Tree Simple: min(360 * .92, 12 * 38.7) = 331.2, x .5; the TREE pattern's x .85 from 2.18.3 only.
  EXPECT_NEAR(m1->bandwidth(AR, Algo::Tree, Proto::Simple), 165.6, 1e-9);
  EXPECT_NEAR(m6->bandwidth(AR, Algo::Tree, Proto::Simple), 165.6 * .85, 1e-9);
  // Tree Simple latency: 0 + 2 * 7 * hwLat[NVLINK][Tree][Simple] = 28 (2.18.1) or 4 (2.18.3+).
  EXPECT_NEAR(m1->latency(AR, Algo::Tree, Proto::Simple), 2 * 7 * 28.0, 1e-9);
  EXPECT_NEAR(m6->latency(AR, Algo::Tree, Proto::Simple), 2 * 7 * 4.0, 1e-9);
  // LL128 over an NVB intra path: off in 2.18.1 (typeIntra <= NVL, :276), on from 2.18.3 (<= NVB).
  Graph nvb = graph(12, 30, 30, PathType::NVB, PathType::LOC);
  auto ob = with_graphs(nvb, nvb);
  auto b1 = Model::build(dgx_h100(1), {2, 18, 1}, ob);
  auto b6 = Model::build(dgx_h100(1), {2, 18, 6}, ob);
  ASSERT_TRUE(b1.ok() && b6.ok());
  EXPECT_EQ(b1->bandwidth(AR, Algo::Ring, Proto::LL128), 0.0);
  EXPECT_GT(b6->bandwidth(AR, Algo::Ring, Proto::LL128), 0.0);
}

TEST(CostFormulas, Family_2_28_Revisions) {
  // NVLSTree across 2 nodes: lat = 0 + intraLat 25 + 2 * log2(2) * interLat, interLat = NET
  // NVLSTree Simple x 1 (+ latencyInter 0): 14 until 2.28.7, 20.9 from 2.28.9 (tuning.cc:165).
  Graph nv = graph(8, 40, 48, PathType::NVL, PathType::PXB, 5);
  auto o = with_graphs(graph(8, 48, 48, PathType::NVL, PathType::PXB), graph(8, 48, 48, PathType::NVL, PathType::PXB, 1), nv);
  auto AR = Collective::AllReduce;
  auto lat = [&](NcclVersion v) {
    auto m = Model::build(dgx_h100(2), v, o);
    return m.ok() ? m->latency(AR, Algo::NvlsTree, Proto::Simple) : -1.0;
  };
  EXPECT_NEAR(lat({2, 28, 3}), 25 + 2 * 14.0, 1e-9);
  EXPECT_NEAR(lat({2, 28, 7}), 25 + 2 * 14.0, 1e-9);
  EXPECT_NEAR(lat({2, 28, 9}), 25 + 2 * 20.9, 1e-9);
  // Blackwell Ring LL128 cap per channel on one node (perChMaxRingLL128Bws[Blackwell][N1]):
  // 2*36.7 (2.28), 34.5 (2.29.2-2.29.3), 40 (2.29.7+); busBw = min(8 * 60 * .92, 8 * cap) x 8/14.
  auto b200 = dgx_h100(1);
  b200.sm = 100;
  Graph r = graph(8, 60, 60, PathType::NVL, PathType::LOC);
  auto ob = with_graphs(r, graph(8, 60, 60, PathType::NVL, PathType::LOC, 1));
  auto ll128 = [&](NcclVersion v) {
    auto m = Model::build(b200, v, ob);
    return m.ok() ? m->bandwidth(AR, Algo::Ring, Proto::LL128) : -1.0;
  };
  EXPECT_NEAR(ll128({2, 28, 3}), 8 * 60 * .92 * 8 / 14, 1e-9);   // 441.6 < 8 * 73.4
  EXPECT_NEAR(ll128({2, 29, 3}), 8 * 34.5 * 8 / 14, 1e-9);
  EXPECT_NEAR(ll128({2, 29, 7}), 8 * 40.0 * 8 / 14, 1e-9);
}

TEST(CostFormulas, TreeCorrectionAndPlateau) {
  auto o = with_graphs(graph(8, 24, 24, PathType::NVL, PathType::PXB), graph(8, 24, 24, PathType::NVL, PathType::PXB, 1));
  auto m = Model::build(dgx_h100(4), {2, 27, 7}, o);
  ASSERT_TRUE(m.ok());
  auto table = m->cost_table(Collective::AllReduce, 1 << 20);  // log2(2^20 >> 6) = 14
  for (const auto& c : table) {
    if (c.algo == Algo::Tree && c.proto == Proto::Simple) {
      // treeCorrectionFactor[Simple][14] = .5
      EXPECT_NEAR(c.time_us, c.lat_us + (1 << 20) / (1000.0 * c.bw_gbps * 0.5), 1e-6);
    }
    if (c.algo == Algo::Ring && c.proto == Proto::Simple) {
      // plateau: 2^20 / (comm channels 16 * 32 ranks) >= 64 -> lat x 1.4 (sm >= 80)
      EXPECT_NEAR(c.time_us, c.lat_us * 1.4 + (1 << 20) / (1000.0 * c.bw_gbps), 1e-6);
    }
  }
}

TEST(AlgoEnable, PerVersionSyntax) {
  // 2.18: NCCL_ALGO only restricts AllReduce.
  auto m18 = parse_enable("Tree", "", {2, 18, 6});
  ASSERT_TRUE(m18.ok());
  EXPECT_FALSE(m18->algo[static_cast<int>(Collective::AllReduce)][static_cast<int>(Algo::Ring)]);
  EXPECT_TRUE(m18->algo[static_cast<int>(Collective::AllGather)][static_cast<int>(Algo::Ring)]);
  // 2.20: the list applies to every function; unknown tokens are ignored.
  auto m20 = parse_enable("Tree,CollNet", "", {2, 20, 3});
  ASSERT_TRUE(m20.ok());
  EXPECT_FALSE(m20->algo[static_cast<int>(Collective::AllGather)][static_cast<int>(Algo::Ring)]);
  // 2.24+: per-function entries; an unknown token is an error.
  auto m24 = parse_enable("ring;allreduce:tree,nvls", "^LL128", {2, 24, 3});
  ASSERT_TRUE(m24.ok());
  EXPECT_TRUE(m24->algo[static_cast<int>(Collective::Broadcast)][static_cast<int>(Algo::Ring)]);
  EXPECT_FALSE(m24->algo[static_cast<int>(Collective::AllReduce)][static_cast<int>(Algo::Ring)]);
  EXPECT_TRUE(m24->algo[static_cast<int>(Collective::AllReduce)][static_cast<int>(Algo::Nvls)]);
  EXPECT_FALSE(m24->proto[0][static_cast<int>(Proto::LL128)]);
  EXPECT_FALSE(parse_enable("CollNet", "", {2, 24, 3}).ok());
  EXPECT_FALSE(parse_enable("ring;tree", "", {2, 26, 2}).ok());  // only the first entry may omit the prefix
}

TEST(AlgoEnable, TreeOnlyBreaksAllGatherFrom_2_24) {
  auto spec = dgx_h100(2);
  Options o;
  o.nccl_algo = "Tree";
  auto m26 = Model::build(spec, {2, 26, 2}, o);
  ASSERT_TRUE(m26.ok());
  EXPECT_FALSE(m26->predict(Collective::AllGather, 1 << 20).available);   // 2.24+: no fallback
  auto m21 = Model::build(spec, {2, 21, 5}, o);
  ASSERT_TRUE(m21.ok());
  auto p21 = m21->predict(Collective::AllGather, 1 << 20);
  EXPECT_TRUE(p21.available);                                             // 2.19-2.23 ring backup
  EXPECT_EQ(p21.algo, Algo::Ring);
  auto m18 = Model::build(spec, {2, 18, 6}, o);
  ASSERT_TRUE(m18.ok());
  EXPECT_EQ(m18->predict(Collective::AllGather, 1 << 20).algo, Algo::Ring);  // only AllReduce filtered
  EXPECT_EQ(m18->predict(Collective::AllReduce, 1 << 20).algo, Algo::Tree);
}

TEST(AlgoEnable, RingBackupInTheTable_2_19_to_2_23) {
  // NCCL_ALGO=Tree leaves AllGather no cell; 2.19-2.23 put comm->ringbdw back into the table
  // (tuning.cc:304-318 @v2.19.1-1), which ignores the protocol rules until 2.21 (ringbdw is taken
  // before them, tuning.cc:202-204 @v2.19.1-1) and keeps them from 2.22 (tuning.cc:318 @v2.22.3-1).
  Options o = with_graphs(graph(12, 30, 30, PathType::NVL, PathType::LOC), graph(12, 30, 30, PathType::NVL, PathType::LOC, 1));
  o.nccl_algo = "Tree";
  o.nccl_proto = "Simple";
  auto AG = Collective::AllGather;
  auto m21 = Model::build(dgx_h100(1), {2, 21, 5}, o);
  auto m22 = Model::build(dgx_h100(1), {2, 22, 3}, o);
  auto m24 = Model::build(dgx_h100(1), {2, 24, 3}, o);
  ASSERT_TRUE(m21.ok() && m22.ok() && m24.ok());
  // Ring Simple AllGather: 12 x 30 x 8/7.
  EXPECT_NEAR(m21->bandwidth(AG, Algo::Ring, Proto::Simple), 360.0 * 8 / 7, 1e-9);
  EXPECT_NEAR(m22->bandwidth(AG, Algo::Ring, Proto::Simple), 360.0 * 8 / 7, 1e-9);
  EXPECT_GT(m21->bandwidth(AG, Algo::Ring, Proto::LL), 0.0);   // NCCL_PROTO=Simple not applied
  EXPECT_EQ(m22->bandwidth(AG, Algo::Ring, Proto::LL), 0.0);
  EXPECT_EQ(m24->bandwidth(AG, Algo::Ring, Proto::Simple), 0.0);  // 2.24+: nothing restored
  // AllReduce keeps its Tree cells: nothing restored there.
  EXPECT_EQ(m21->bandwidth(Collective::AllReduce, Algo::Ring, Proto::Simple), 0.0);
}

TEST(BusbwFactor, NcclTestsFactors) {
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::AllReduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::AllGather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::Broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::SendRecv, 8), 1.0);
}
