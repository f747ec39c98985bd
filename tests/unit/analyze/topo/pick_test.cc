#include "analyze/topo/pick.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "probe/topo_smi_parse.h"
#include "probe/topo_xml_parse.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::analyze;

namespace {
probe::TopoMatrix load(const std::string& rel) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/" + rel);
  std::stringstream ss;
  ss << f.rdbuf();
  auto r = rel.ends_with(".xml") ? probe::parse_nccl_topo_xml(ss.str(), rel) : probe::parse_smi_topo(ss.str(), rel);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}
std::vector<int> indices(const probe::TopoMatrix& m, const TopoPick& p) {
  std::vector<int> v;
  for (auto g : p.gpus) v.push_back(m.gpus[g].index);
  return v;
}
}  // namespace

TEST(TopoPick, NvlinkPairsBeatPcie) {
  auto m = load("smi/eugene-8xa40-nv4-pairs-abbrev.txt");
  auto p2 = pick_gpus(m, 2);
  ASSERT_TRUE(p2.ok());
  EXPECT_EQ(indices(m, *p2), (std::vector<int>{0, 1}));
  EXPECT_EQ(p2->score.nvlinks, 4);
  // Four GPUs: two NV4 pairs on one socket (worst NODE) beat any set that crosses sockets (SYS).
  auto p4 = pick_gpus(m, 4);
  ASSERT_TRUE(p4.ok());
  EXPECT_EQ(indices(m, *p4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(p4->score.worst.type, probe::LinkType::node);
  EXPECT_EQ(p4->candidates, 70u);
}

TEST(TopoPick, NicsFollowRailsNotIndices) {
  auto m = load("smi/slurmv4-aihub0007-h100-12nic.txt");
  auto p = pick_gpus(m, 8);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->hca_applies);
  // The operators' own NCCL_IB_HCA for this box (see SOURCES.md): the eight PIX NICs.
  EXPECT_EQ(p->hca, (std::vector<std::string>{"mlx5_0", "mlx5_1", "mlx5_11", "mlx5_2", "mlx5_5", "mlx5_6",
                                              "mlx5_7", "mlx5_8"}));
  EXPECT_TRUE(p->warnings.empty());
  EXPECT_EQ(p->bindings[3].gpu, 3);
  ASSERT_EQ(p->bindings[3].nics.size(), 1u);
  EXPECT_EQ(m.nics[p->bindings[3].nics[0]].name, "mlx5_5");
}

TEST(TopoPick, OneNumaNodeWhenPossible) {
  auto m = load("smi/mlengineering-a100-nv12.txt");
  auto p = pick_gpus(m, 4);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->score.numa_nodes, 1);
  EXPECT_EQ(indices(m, *p), (std::vector<int>{0, 1, 2, 3}));
  auto all = pick_gpus(m, 8);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->score.numa_nodes, 2);
  EXPECT_FALSE(all->warnings.empty());  // spans two NUMA nodes
}

TEST(TopoPick, GpusNextToTheNic) {
  // Every GPU pair is SYS; only GPU6 is near the NICs (PHB), so it must be in a pair.
  auto m = load("smi/gogpuallocator17-8x4090-sys.txt");
  auto p = pick_gpus(m, 2);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(indices(m, *p), (std::vector<int>{4, 6}));  // same NUMA node as GPU6, lowest index
  EXPECT_FALSE(p->warnings.empty());                    // SYS, and PHB is beyond PXB for GDR
  EXPECT_TRUE(p->hca.empty());
}

TEST(TopoPick, XmlSwitchesAndEfa) {
  auto m = load("xml/aws-ofi-nccl_p4d-24xl-topo.xml");
  auto p = pick_gpus(m, 2);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(indices(m, *p), (std::vector<int>{0, 1}));  // PIX pair behind switch 0
  EXPECT_EQ(p->score.worst.type, probe::LinkType::pix);
  auto p5 = load("xml/aws-ofi-nccl_p5.48xl-topo.xml");
  auto q = pick_gpus(p5, 1);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->bindings[0].nics.size(), 4u);
  EXPECT_FALSE(q->hca_applies);  // EFA rdmap devices
}

TEST(TopoPick, BadK) {
  auto m = load("smi/mlengineering-2gpu-nv2.txt");
  EXPECT_EQ(pick_gpus(m, 3).status().code(), core::Exit::usage);
  EXPECT_EQ(pick_gpus(m, 0).status().code(), core::Exit::usage);
}

TEST(TopoPick, ScoreOrder) {
  TopoScore a, b;
  a.worst_rank = 1, a.nvlinks = 12;
  b.worst_rank = 1, b.nvlinks = 18;
  EXPECT_TRUE(better(b, a));
  b.worst_rank = 2;
  EXPECT_TRUE(better(a, b));
}
