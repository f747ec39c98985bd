// The graph search uses the speed arrays of the exact release, not only of its family
// (NVIDIA/nccl src/graph/search.cc per tag; revisions in knowledge/data/nccl_tuning.yaml), and
// the judge applies the NCCL_ALGO/NCCL_PROTO a run was made with when its output lacks NCCL's
// own "set by environment" line.
#include <gtest/gtest.h>

#include "analyze/judge/judge.h"
#include "knowledge/nccl_tuning.h"
#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"

using namespace ncdx;
using namespace ncdx::model::cost;

namespace {

const knowledge::NcclTuningFamily& family(int i) {
  auto t = knowledge::nccl_tuning();
  EXPECT_TRUE(t.ok());
  return (**t)[i];
}

double first(const std::map<int, std::vector<double>>& m, int sm) {
  auto it = m.find(sm);
  return it == m.end() || it->second.empty() ? -1 : it->second.front();
}

}  // namespace

TEST(SearchSpeeds, ArraysFollowTheRelease) {
  const auto& f14 = family(0);
  EXPECT_EQ(first(f14.speeds_for(false, 21403), 0), 44.0);   // v2.14.3-1 speedArrayIntra
  EXPECT_EQ(first(f14.speeds_for(false, 20909), 0), 44.0);   // older than the family: its first revision
  EXPECT_EQ(first(f14.speeds_for(false, 21806), 0), 40.0);   // v2.18.1-1 on
  EXPECT_EQ(f14.speeds_for(true, 21602).count(90), 0u);      // 2.16.2: Hopper uses the default arrays
  EXPECT_EQ(first(f14.speeds_for(true, 21605), 90), 48.0);   // v2.16.5-1: first sm90 arrays
  EXPECT_EQ(f14.speeds_for(true, 21805).at(90).size(), 16u); // v2.18.3-1 added 20 and 17.5
  const auto& f19 = family(1);
  EXPECT_EQ(first(f19.speeds_for(true, 22602), 100), 48.0);  // 2.26.2: sm100 inter tops at 48
  EXPECT_EQ(first(f19.speeds_for(true, 22703), 100), 47.9);
  EXPECT_EQ(first(f19.speeds_for(true, 22707), 100), 96.0);  // v2.27.6-1 added 96
  EXPECT_EQ(f19.speeds_for(true, 22402).count(100), 0u);     // no Blackwell arrays before 2.25
  const auto& f28 = family(2);
  EXPECT_EQ(f28.speeds_for(true, 22903).at(100)[1], 48.0);
  EXPECT_EQ(f28.speeds_for(true, 22907).at(100)[1], 80.0);   // v2.29.7-1 added 80
  EXPECT_EQ(f28.speeds_for(true, 23007).at(100)[1], 86.0);   // v2.30.3-1 added 86
}

TEST(SearchSpeeds, NvlinkRatePerRelease) {
  // src/graph/topo.h SM*_NVLINK_BW and ncclTopoNVLinkBw per tag.
  EXPECT_EQ(family(0).nvlink_gbps(80, 21403), 22.0);   // 2.14.3: SM80_NVLINK_BW 22
  EXPECT_EQ(family(0).nvlink_gbps(70, 20909), 22.0);   // older releases: the family's first revision
  EXPECT_EQ(family(0).nvlink_gbps(90, 21602), 22.0);   // no SM90 define: Hopper in the >= 80 branch
  EXPECT_EQ(family(0).nvlink_gbps(90, 21806), 20.0);
  EXPECT_EQ(family(0).nvlink_gbps(86, 21806), 12.0);
  EXPECT_EQ(family(1).nvlink_gbps(90, 21904), 20.0);
  EXPECT_EQ(family(1).nvlink_gbps(90, 22003), 20.6);
  EXPECT_EQ(family(1).nvlink_gbps(100, 22402), 20.6);  // Blackwell before 2.25: the >= 90 branch
  EXPECT_EQ(family(1).nvlink_gbps(100, 22602), 40.0);
  EXPECT_EQ(family(1).nvlink_gbps(100, 22707), 40.1);
  EXPECT_EQ(family(2).nvlink_gbps(89, 23007), 20.0);   // only sm86 is its own class
}

TEST(SearchSpeeds, BlackwellTreeBwIntraDependsOnTheRelease) {
  // 2 x HGX B200 with 8 x 400G: the tree's pass 2 raises bwIntra towards 2 x bwInter (2 x 48),
  // which needs 96 in the sm100 inter array (2.27.6+); 2.26.2 stops at 48.
  auto spec = parse_spec("nodes=2,gpus=8,gpu=B200,nic=8x400G-IB");
  ASSERT_TRUE(spec.ok());
  auto m26 = Model::build(*spec, *NcclVersion::parse("2.26.2"));
  auto m27 = Model::build(*spec, *NcclVersion::parse("2.27.7"));
  ASSERT_TRUE(m26.ok() && m27.ok());
  EXPECT_EQ(m26->graphs()[static_cast<int>(Algo::Tree)].bw_intra, 48.0);
  EXPECT_EQ(m27->graphs()[static_cast<int>(Algo::Tree)].bw_intra, 96.0);
  // So at 2 GiB NCCL 2.26.2 keeps NVLSTree (8 x 48 x 5/6) and 2.27.7 takes Tree.
  EXPECT_EQ(m26->predict(Collective::AllReduce, 2ull << 30).algo, Algo::NvlsTree);
  EXPECT_EQ(m27->predict(Collective::AllReduce, 2ull << 30).algo, Algo::Tree);
}

TEST(JudgeEnv, AlgoFromOptionsWhenTheOutputDoesNotPrintIt) {
  // A table-only nccl-tests output of a run made with NCCL_ALGO=RING NCCL_PROTO=simple.
  const std::string out =
      "#  Rank  0 Group  0 Pid 1 on a device  0 [0x10] NVIDIA A100-SXM4-40GB\n"
      "#  Rank  1 Group  0 Pid 2 on b device  0 [0x10] NVIDIA A100-SXM4-40GB\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
      "   268435456      67108864     float     sum      -1    30000    8.95    8.95      0    30000    8.95    8.95      0\n";
  auto runs = analyze::judge::parse_nccl_tests(out, "t.txt");
  ASSERT_TRUE(runs.ok());
  analyze::judge::JudgeOptions o;
  o.spec = *parse_spec("nodes=2,gpus=1,gpu=A100,nic=1x100G-IB");
  o.coll = Collective::AllReduce;
  o.version = NcclVersion::parse("2.18.6");
  auto plain = analyze::judge::judge_runs(*runs, o);
  o.nccl_algo = "RING";
  o.nccl_proto = "LL";
  auto forced = analyze::judge::judge_runs(*runs, o);
  ASSERT_EQ(plain.size(), 1u);
  ASSERT_EQ(forced.size(), 1u);
  ASSERT_FALSE(forced[0].rows.empty());
  EXPECT_EQ(forced[0].rows.back().algo, "Ring");
  EXPECT_EQ(forced[0].rows.back().proto, "LL");
  EXPECT_NE(plain[0].rows.back().proto, "LL");
  EXPECT_GT(forced[0].rows.back().nchannels, 0);
}

TEST(SearchSpeeds, NicOnTheOtherSocket) {
  // nicpath=sys: the GPU->NIC path crosses the inter-socket link (ncclTopoGetInterCpuBw
  // @v2.26.2-1: AMD_BW 16, Intel SKL_QPI_BW 10) and GDR is off by default (NET_GDR_LEVEL PXB).
  auto amd = parse_spec("nodes=2,gpus=1,gpu=H100,nic=1x400G-RoCE,nicpath=sys,cpu=amd");
  auto intel = parse_spec("nodes=2,gpus=1,gpu=H100,nic=1x400G-RoCE,nicpath=SYS");
  auto local = parse_spec("nodes=2,gpus=1,gpu=H100,nic=1x400G-RoCE");
  ASSERT_TRUE(amd.ok() && intel.ok() && local.ok());
  EXPECT_FALSE(amd->gdr);
  EXPECT_TRUE(local->gdr);
  EXPECT_TRUE(parse_spec("nodes=2,gpus=1,gpu=H100,nic=1x400G-RoCE,nicpath=sys,gdr=yes")->gdr);
  EXPECT_FALSE(parse_spec("nicpath=far").ok());
  auto v = *NcclVersion::parse("2.26.2");
  auto m_amd = Model::build(*amd, v), m_intel = Model::build(*intel, v), m_local = Model::build(*local, v);
  ASSERT_TRUE(m_amd.ok() && m_intel.ok() && m_local.ok());
  const auto& ring_amd = m_amd->graphs()[static_cast<int>(Algo::Ring)];
  // 16 GB/s: 1 channel at 15, below 25 so not duplicated; ncclTopoPostset doubles it to 2
  // (what the MOC logs print).
  EXPECT_EQ(ring_amd.nchannels, 1);
  EXPECT_EQ(ring_amd.bw_inter, 15.0);
  EXPECT_EQ(ring_amd.type_inter, PathType::SYS);
  EXPECT_EQ(m_amd->comm_channels(), 2);
  // 10 GB/s: 1 x 6 loses to 3 x 3 and then to 4 x 2.4 (9.6 GB/s in all) -> 8 channels.
  EXPECT_EQ(m_intel->graphs()[static_cast<int>(Algo::Ring)].nchannels, 4);
  EXPECT_EQ(m_intel->comm_channels(), 8);
  // A local 400G NIC: 1 x 48, duplicated to 2 x 24, doubled to 4.
  EXPECT_EQ(m_local->comm_channels(), 4);
}

TEST(SearchSpeeds, OlderTablesInsideTheFamily) {
  // tuning.cc @v2.19.4-1 / v2.21.5-1 / v2.22.3-1 vs the family's v2.27.7-1 tables.
  constexpr int TREE = 0, RING = 1, NVLS = 4, LL = 0, SIMPLE = 2, NVL = 0, NET = 2;
  const auto t19 = family(1).for_release(21904), t21 = family(1).for_release(22105),
             t22 = family(1).for_release(22203), t27 = family(1).for_release(22707);
  EXPECT_EQ(t19.hw_lat[NVL][TREE][SIMPLE], 28.0);  // Tree Simple discouraged in 2.19-2.22
  EXPECT_EQ(t22.hw_lat[NET][TREE][SIMPLE], 28.0);
  EXPECT_EQ(t22.base_lat[TREE][SIMPLE], 0.0);
  EXPECT_EQ(t27.hw_lat[NET][TREE][SIMPLE], 14.0);  // back to 4/4/14 (+8.4 base) from 2.23
  EXPECT_EQ(t27.base_lat[TREE][SIMPLE], 8.4);
  EXPECT_EQ(t19.hw_lat[NVL][NVLS][SIMPLE], 23.0);  // 25 from 2.21
  EXPECT_EQ(t21.hw_lat[NVL][NVLS][SIMPLE], 25.0);
  EXPECT_EQ(t19.ll_max_bws[2][0], 87.7);           // Hopper llMaxBws {141, 45, 35} from 2.21
  EXPECT_EQ(t21.ll_max_bws[2][0], 141.0);
  // Ring LL: x1/4 (AllReduce) until 2.20, x0.5 from 2.21.5, capped by llMaxBw; then x n/nsteps.
  auto spec = parse_spec("nodes=1,gpus=8,gpu=H100");
  ASSERT_TRUE(spec.ok());
  for (const char* v : {"2.20.5", "2.21.5"}) {
    auto m = Model::build(*spec, *NcclVersion::parse(v));
    ASSERT_TRUE(m.ok());
    const auto& g = m->graphs()[RING];
    bool old = std::string(v) == "2.20.5";
    double bus = std::min(old ? 87.7 : 141.0, g.nchannels * g.bw_intra * (old ? 0.25 : 0.5));
    EXPECT_NEAR(m->bandwidth(Collective::AllReduce, Algo::Ring, Proto::LL), bus * 8.0 / 14.0, 1e-9) << v;
  }
  (void)LL;
}
