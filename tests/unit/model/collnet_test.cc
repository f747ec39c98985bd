// CollNet (SHARP) in NCCL's tuning model and pick, against values computed by hand from NCCL's
// source (NVIDIA/nccl tuning.cc, init.cc, coll_net.cc, enqueue.cc; the line@tag next to each
// expectation). Graphs are given explicitly, as NCCL's search would report them.
#include <gtest/gtest.h>

#include "model/cost/collnet.h"
#include "model/cost/nccl_log_inputs.h"
#include "model/cost/pick_filter.h"
#include "model/cost/predict.h"
#include "support/model_graph.h"

using namespace ncdx::model::cost;

namespace {

// NVL inside the node, PXB to the NIC.
Graph graph(int c, double bi, double be, int pattern) {
  return ncdx::model::cost::testing::graph(c, bi, be, PathType::NVL, PathType::PXB, pattern);
}

// Ring/Tree 8 x 40, CollNetDirect `direct`, CollNetChain 8 channels of 30, NVLS `nvls`.
Options graphs(Graph direct, Graph nvls = {}, Graph chain = graph(8, 30, 30, 3)) {
  Options o;
  Graphs g{};
  g[static_cast<int>(Algo::Ring)] = graph(8, 40, 40, 4);
  g[static_cast<int>(Algo::Tree)] = g[static_cast<int>(Algo::Pat)] = graph(8, 40, 40, 1);
  g[static_cast<int>(Algo::CollNetDirect)] = direct;
  g[static_cast<int>(Algo::CollNetChain)] = chain;
  g[static_cast<int>(Algo::Nvls)] = g[static_cast<int>(Algo::NvlsTree)] = nvls;
  o.graphs = g;
  return o;
}

ClusterSpec sharp(int nodes, int gpus, bool collnet = true) {
  ClusterSpec s;
  s.nodes = nodes;
  s.gpus_per_node = gpus;
  s.sm = 90;
  s.nvlink_links = 18;
  s.nvswitch = true;
  s.nics_per_node = gpus;
  s.nic_gbit = 400;
  s.pcie_gbps = 48;
  s.collnet = collnet;
  return s;
}

double bw(const ClusterSpec& s, NcclVersion v, const Options& o, Collective c, Algo a) {
  auto m = Model::build(s, v, o);
  return m.ok() ? m->bandwidth(c, a, Proto::Simple) : -1.0;
}

}  // namespace

TEST(CollNet, DirectAllGatherBefore_2_27) {
  const auto AG = Collective::AllGather, RS = Collective::ReduceScatter;
  const auto o = graphs(graph(8, 20, 30, 6));
  // 2.20-2.26: ppn x bwIntra = 8 x 20 = 160, x (w .85 + (1-w) .95) with w = (8-1)/7 = 1 -> 136,
  // no algbw ratio for CollNetDirect AllGather (tuning.cc:189-213 @v2.21.5-1).
  EXPECT_NEAR(bw(sharp(4, 8), {2, 21, 5}, o, AG, Algo::CollNetDirect), 136.0, 1e-4);
  EXPECT_NEAR(bw(sharp(4, 8), {2, 26, 6}, o, RS, Algo::CollNetDirect), 136.0, 1e-4);
  // 4 per node: w = 3/7, 4 x 20 x (3/7 x .85 + 4/7 x .95) = 72.571.
  EXPECT_NEAR(bw(sharp(4, 4), {2, 20, 3}, o, AG, Algo::CollNetDirect), 80.0 * 6.35 / 7, 1e-4);
  // 2.27+: ppn x min(bwIntra, 0.9 bwInter) = 8 x 20 (tuning.cc:290 @v2.27.7-1).
  EXPECT_NEAR(bw(sharp(4, 8), {2, 27, 7}, o, AG, Algo::CollNetDirect), 160.0, 1e-4);
  // 2.19 has no CollNetDirect AllGather at all (tuning.cc:168-169 @v2.19.4-1: Ring and NVLS).
  EXPECT_EQ(bw(sharp(4, 8), {2, 19, 4}, o, AG, Algo::CollNetDirect), 0.0);
  // Fewer heads (4 distinct) than ranks per node (8): off across nodes (tuning.cc:194 @v2.21.5-1,
  // :299-318 @v2.27.7-1).
  const auto four = graphs(graph(4, 20, 30, 6));
  EXPECT_EQ(bw(sharp(4, 8), {2, 21, 5}, four, AG, Algo::CollNetDirect), 0.0);
  EXPECT_EQ(bw(sharp(4, 8), {2, 27, 7}, four, AG, Algo::CollNetDirect), 0.0);
  EXPECT_NEAR(bw(sharp(4, 4), {2, 21, 5}, four, AG, Algo::CollNetDirect), 80.0 * 6.35 / 7, 1e-4);
}

TEST(CollNet, HeadsFromNvlsFrom_2_28) {
  const auto AG = Collective::AllGather;
  // CollNetDirect 8 distinct heads, NVLS 4 channels: 2.27 counts the CollNetDirect heads
  // (coll_net.cc:1501 @v2.27.7-1), 2.28+ the NVLS heads when NVLS is supported (coll_net.cc:1492-1509
  // @v2.28.9-1), so 8 ranks per node > 4 heads turns CollNetDirect and NVLS AllGather off.
  const auto o = graphs(graph(8, 20, 30, 6), graph(4, 40, 40, 5));
  EXPECT_EQ(collnet_state(sharp(4, 8), *o.graphs, {2, 27, 7}).heads, 8);
  EXPECT_EQ(collnet_state(sharp(4, 8), *o.graphs, {2, 28, 9}).heads, 4);
  EXPECT_NEAR(bw(sharp(4, 8), {2, 27, 7}, o, AG, Algo::CollNetDirect), 160.0, 1e-4);
  EXPECT_EQ(bw(sharp(4, 8), {2, 28, 9}, o, AG, Algo::CollNetDirect), 0.0);
  EXPECT_EQ(bw(sharp(4, 8), {2, 28, 9}, o, AG, Algo::Nvls), 0.0);
  // CollNet off (one node, or no plugin): no heads, CollNet off (init.cc:1017,1028-1032 @v2.27.7-1).
  EXPECT_FALSE(collnet_state(sharp(1, 8), *o.graphs, {2, 27, 7}).enabled);
  EXPECT_FALSE(collnet_state(sharp(4, 8, false), *o.graphs, {2, 27, 7}).enabled);
  EXPECT_EQ(bw(sharp(4, 8, false), {2, 27, 7}, o, Collective::AllReduce, Algo::CollNetChain), 0.0);
}

TEST(CollNet, ChainHeadsFrom_2_30_7) {
  const auto AR = Collective::AllReduce;
  // Chain 16 channels (8 distinct heads), NVLS 4 heads: the chain's heads are not all CollNet
  // heads, so 2.30.7 disables CollNetChain (coll_net.cc:1676-1689,1730, tuning.cc:507 @v2.30.7-1).
  const auto o = graphs(graph(8, 20, 30, 6), graph(4, 40, 40, 5), graph(16, 30, 30, 3));
  EXPECT_FALSE(collnet_state(sharp(4, 8), *o.graphs, {2, 30, 7}).chain_support);
  EXPECT_EQ(bw(sharp(4, 8), {2, 30, 7}, o, AR, Algo::CollNetChain), 0.0);
  // 2.30.4 has no such rule: 16 x 30 x .5 = 240.
  EXPECT_NEAR(bw(sharp(4, 8), {2, 30, 4}, o, AR, Algo::CollNetChain), 240.0, 1e-4);
  // Without NVLS the heads are CollNetDirect's 8: chain allowed.
  const auto no_nvls = graphs(graph(8, 20, 30, 6), {}, graph(16, 30, 30, 3));
  EXPECT_NEAR(bw(sharp(4, 8), {2, 30, 7}, no_nvls, AR, Algo::CollNetChain), 240.0, 1e-4);
}

TEST(CollNet, OneCollNetGraphBefore_2_22) {
  // Releases before 2.22 print one CollNet graph (pattern 3) and use it for both algorithms
  // (init.cc:906 @v2.21.5-1): CollNetDirect reads the chain graph.
  const char* log =
      "h:1:1 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 8, bw 40.000000/40.000000, type NVL/PXB, sameChannels 1\n"
      "h:1:1 [0] NCCL INFO Pattern 1, crossNic 0, nChannels 8, bw 40.000000/40.000000, type NVL/PXB, sameChannels 1\n"
      "h:1:1 [0] NCCL INFO Pattern 3, crossNic 0, nChannels 8, bw 24.000000/24.000000, type NVL/PXB, sameChannels 1\n";
  auto f = read_nccl_log(log);
  ASSERT_TRUE(f.graphs.has_value());
  const auto& g = *f.graphs;
  EXPECT_EQ(g[static_cast<int>(Algo::CollNetDirect)].nchannels, 8);
  EXPECT_EQ(g[static_cast<int>(Algo::CollNetDirect)].bw_intra, 24.0);
  EXPECT_EQ(g[static_cast<int>(Algo::CollNetChain)].bw_intra, 24.0);
  // Our estimate does the same before 2.22 and gives 2.22+ a COLLNET_DIRECT graph (pattern 6).
  auto m21 = Model::build(sharp(4, 8), {2, 21, 5});
  auto m22 = Model::build(sharp(4, 8), {2, 22, 3});
  ASSERT_TRUE(m21.ok() && m22.ok());
  EXPECT_EQ(m21->graphs()[static_cast<int>(Algo::CollNetDirect)].pattern, 3);
  EXPECT_EQ(m21->graphs()[static_cast<int>(Algo::CollNetDirect)].nchannels,
            m21->graphs()[static_cast<int>(Algo::CollNetChain)].nchannels);
  EXPECT_EQ(m22->graphs()[static_cast<int>(Algo::CollNetDirect)].pattern, 6);
}

TEST(CollNet, PickSkipsBeyondTheTables) {
  PickContext c;
  c.nodes = 4;
  c.nranks = 64;
  c.local_ranks = 16;
  c.collnet = c.nvls = true;
  // CollNetDirect beyond NCCL_MAX_DIRECT_ARITY+1 = 8 local ranks from 2.23 (enqueue.cc:1793
  // @v2.23.4-1), CollNetChain from 2.28 (enqueue.cc:1801 @v2.28.9-1).
  c.code = 22203;
  EXPECT_FALSE(pick_skips(c, Collective::AllReduce, Algo::CollNetDirect));
  c.code = 22304;
  EXPECT_TRUE(pick_skips(c, Collective::AllReduce, Algo::CollNetDirect));
  EXPECT_FALSE(pick_skips(c, Collective::AllReduce, Algo::CollNetChain));
  c.code = 22803;
  EXPECT_TRUE(pick_skips(c, Collective::AllReduce, Algo::CollNetChain));
  // NVLS AllGather across nodes: dropped by the loop in 2.19-2.26 (enqueue.cc:1797 @v2.23.4-1,
  // :1689 @v2.26.6-1) although tuning.cc gives it bandwidth; 2.27+ decides in tuning.cc.
  c.local_ranks = 8;
  c.code = 22304;
  EXPECT_TRUE(pick_skips(c, Collective::AllGather, Algo::Nvls));
  EXPECT_FALSE(pick_skips(c, Collective::AllReduce, Algo::Nvls));
  c.code = 22707;
  EXPECT_FALSE(pick_skips(c, Collective::AllGather, Algo::Nvls));
  // NVLS across nodes needs CollNet (enqueue.cc:1769 @v2.27.7-1).
  c.collnet = false;
  EXPECT_TRUE(pick_skips(c, Collective::AllReduce, Algo::Nvls));
  EXPECT_TRUE(pick_skips(c, Collective::AllReduce, Algo::CollNetChain));

  // In the model: 2.23.4, 4 x 8 H100 with CollNet and NVLS -- NVLS AllGather has bandwidth in
  // the table but no time, so it is never picked.
  const auto o = graphs(graph(8, 20, 30, 6), graph(8, 40, 40, 5));
  auto m = Model::build(sharp(4, 8), {2, 23, 4}, o);
  ASSERT_TRUE(m.ok());
  EXPECT_GT(m->bandwidth(Collective::AllGather, Algo::Nvls, Proto::Simple), 0.0);
  for (const auto& cell : m->cost_table(Collective::AllGather, 1 << 30))
    if (cell.algo == Algo::Nvls) EXPECT_LT(cell.time_us, 0.0);
  EXPECT_NE(m->predict(Collective::AllGather, 1 << 30).algo, Algo::Nvls);
}
