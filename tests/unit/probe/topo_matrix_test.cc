#include "probe/topo_matrix.h"

#include <gtest/gtest.h>

using namespace ncdx::probe;

TEST(TopoLink, ParsesEveryNvidiaCode) {
  EXPECT_EQ(parse_link_code(" X ")->type, LinkType::self);
  EXPECT_EQ(parse_link_code("NV18")->nvlinks, 18);
  EXPECT_EQ(parse_link_code("NV2")->type, LinkType::nvlink);
  EXPECT_EQ(parse_link_code("PIX")->type, LinkType::pix);
  EXPECT_EQ(parse_link_code("PXB")->type, LinkType::pxb);
  EXPECT_EQ(parse_link_code("PHB")->type, LinkType::phb);
  EXPECT_EQ(parse_link_code("NODE")->type, LinkType::node);
  EXPECT_EQ(parse_link_code("SYS")->type, LinkType::sys);
  EXPECT_EQ(parse_link_code("SOC")->type, LinkType::soc);
  EXPECT_FALSE(parse_link_code("PIXNODE"));
  EXPECT_FALSE(parse_link_code("NV"));
  EXPECT_FALSE(parse_link_code("NV0"));
  EXPECT_FALSE(parse_link_code("NVx"));
  EXPECT_FALSE(parse_link_code("nv12"));
  EXPECT_EQ(to_string(*parse_link_code("NV12")), "NV12");
}

TEST(TopoLink, RankFollowsNcclPathOrder) {
  auto r = [](const char* c) { return rank(*parse_link_code(c)); };
  EXPECT_LT(r("X"), r("NV1"));
  EXPECT_LT(r("NV18"), r("PIX"));
  EXPECT_LT(r("PIX"), r("PXB"));
  EXPECT_LT(r("PXB"), r("PHB"));
  EXPECT_LT(r("PHB"), r("NODE"));
  EXPECT_LT(r("NODE"), r("SYS"));
  EXPECT_EQ(r("SYS"), r("SOC"));
  EXPECT_LT(r("SYS"), rank(Link{}));
  EXPECT_EQ(nccl_path_name(*parse_link_code("NODE")), "PHB");
  EXPECT_EQ(nccl_path_name(*parse_link_code("NV4")), "NVL");
  EXPECT_EQ(nccl_path_name(Link{}), "");
}

TEST(TopoLink, NvmlLevels) {
  EXPECT_EQ(link_from_nvml_level(10).type, LinkType::pix);
  EXPECT_EQ(link_from_nvml_level(40).type, LinkType::node);
  EXPECT_EQ(link_from_nvml_level(50).type, LinkType::sys);
  EXPECT_EQ(link_from_nvml_level(7).type, LinkType::unknown);
}

TEST(TopoMatrix, IndexesGpusThenNics) {
  TopoMatrix m;
  m.gpus.resize(2);
  m.gpus[1].index = 1;
  m.nics.push_back(Nic{"NIC0", "mlx5_0", "", 400.0, 0});
  m.reset_links();
  EXPECT_EQ(m.links.size(), 9u);
  EXPECT_EQ(m.at(2, 2).type, LinkType::self);
  EXPECT_EQ(m.gpu_nic(0, 0).type, LinkType::unknown);
  m.at(0, 1) = m.at(1, 0) = Link{LinkType::nvlink, 12};
  EXPECT_EQ(m.nvlink_count(1, 0), 12);
  EXPECT_TRUE(m.any_nvlink());
  EXPECT_EQ(m.label(1), "GPU1");
  EXPECT_EQ(m.label(2), "NIC0");
}

TEST(Cpulist, RoundTrip) {
  EXPECT_EQ(*parse_cpulist("0-3,8"), (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(format_cpulist({8, 0, 1, 2, 3}), "0-3,8");
  EXPECT_EQ(format_cpulist(*parse_cpulist("0-55,112-167")), "0-55,112-167");
  EXPECT_FALSE(parse_cpulist("3-1"));
  EXPECT_FALSE(parse_cpulist("a"));
  EXPECT_FALSE(parse_cpulist("0-9999999"));
}

TEST(Cpulist, FromMask) {
  // Azure NDv4 NUMA 0 and p4d NUMA 1 masks (tests/data/topo).
  EXPECT_EQ(*cpumask_to_cpulist("00000000,00000000,00ffffff"), "0-23");
  EXPECT_EQ(*cpumask_to_cpulist("ffffff00,0000ffff,ff000000"), "24-47,72-95");
  EXPECT_FALSE(cpumask_to_cpulist("zz"));
  EXPECT_FALSE(cpumask_to_cpulist("123456789"));
}
