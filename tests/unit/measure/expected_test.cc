#include "measure/expected.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "measure/measurements.h"
#include "probe/topo_smi_parse.h"
#include "probe/topo_xml_parse.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::measure;

namespace {
const knowledge::GpuModelTable& table() {
  auto t = knowledge::gpu_models();
  EXPECT_TRUE(t.ok()) << t.status().message();
  return **t;
}
probe::TopoMatrix load(const std::string& rel, const std::string& gpu_name) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/" + rel);
  std::stringstream ss;
  ss << f.rdbuf();
  auto r = rel.ends_with(".xml") ? probe::parse_nccl_topo_xml(ss.str(), rel) : probe::parse_smi_topo(ss.str(), rel);
  EXPECT_TRUE(r.ok()) << r.status().message();
  for (auto& g : r->gpus) g.name = gpu_name;
  return *r;
}
}  // namespace

TEST(GpuModels, TableLoadsAndMatchesWholeWords) {
  const auto& t = table();
  EXPECT_EQ(t.by_name("NVIDIA H100 80GB HBM3")->id, "h100-sxm");
  EXPECT_EQ(t.by_name("NVIDIA H100 PCIe")->id, "h100-pcie");
  EXPECT_EQ(t.by_name("NVIDIA A100-SXM4-80GB")->id, "a100-80gb-sxm");
  EXPECT_EQ(t.by_name("NVIDIA A100 80GB PCIe")->id, "a100-pcie");
  EXPECT_EQ(t.by_name("NVIDIA A100-SXM4-40GB")->id, "a100-40gb-sxm");
  EXPECT_EQ(t.by_name("NVIDIA GH200 480GB")->id, "gh200");
  EXPECT_EQ(t.by_name("NVIDIA L40S")->id, "l40s");
  EXPECT_EQ(t.by_name("NVIDIA L40"), nullptr);  // "L4" must not match it
  EXPECT_EQ(t.by_name("Tesla V100-SXM2-32GB")->id, "v100-sxm2");
  EXPECT_EQ(t.by_pci_device_id("0x20B0")->id, "a100-40gb-sxm");
  EXPECT_EQ(t.nccl_nvlink_gbps(90), 20.6);
  EXPECT_EQ(t.nccl_nvlink_gbps(86), 12.0);
  EXPECT_EQ(t.nccl_nvlink_gbps(89), 20.0);  // sm89 has no NVLink entry: falls back to sm80, not sm86
  EXPECT_EQ(t.nccl_nvlink_gbps(103), 40.1);
  for (const auto& m : t.models) EXPECT_FALSE(m.source.empty()) << m.id;
}

TEST(Expected, PcieAndMemory) {
  const auto& t = table();
  auto g4 = pcie_copy(t, 16.0, 16);
  ASSERT_TRUE(g4.gbps);
  EXPECT_NEAR(*g4.gbps, 26.8, 0.1);
  EXPECT_NEAR(*pcie_copy(t, 32.0, 16).gbps, 53.6, 0.1);
  EXPECT_FALSE(pcie_copy(t, std::nullopt, 16).gbps);
  EXPECT_FALSE(pcie_copy(t, 7.0, 16).gbps);
  probe::Gpu h;
  h.name = "NVIDIA H100 80GB HBM3";
  EXPECT_NEAR(*host_copy(t, h).gbps, 53.6, 0.1);  // model's Gen5 x16 when the link is not probed
  h.pcie_gts = 16, h.pcie_width = 8;             // a downtrained link lowers the expectation
  EXPECT_NEAR(*host_copy(t, h).gbps, 13.4, 0.1);
  EXPECT_EQ(*device_copy(t, h).gbps, 1675);
  probe::Gpu unknown;
  unknown.name = "Some Future GPU";
  EXPECT_FALSE(device_copy(t, unknown).gbps);
}

TEST(Expected, P2pAndRingFromRealTopologies) {
  const auto& t = table();
  auto h100 = load("smi/slurmv4-aihub0007-h100-12nic.txt", "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(*p2p_copy(t, h100, 0, 1).gbps, 450);
  std::vector<std::size_t> all{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_NEAR(*nccl_ring_busbw(t, h100, all).gbps, 370.8, 0.01);  // 18 x 20.6
  auto a40 = load("smi/eugene-8xa40-nv4-pairs-abbrev.txt", "NVIDIA A40");
  EXPECT_EQ(*nccl_pair(t, a40, 0, 1).gbps, 48);  // NV4 x 12 (sm86)
  EXPECT_EQ(*nccl_pair(t, a40, 0, 2).gbps, 24);  // NODE: PCIe Gen4 x16
  EXPECT_FALSE(nccl_pair(t, a40, 0, 4).gbps);    // SYS: no expectation
  // Ring over 0-3 must cross a PCIe hop: bottleneck 24.
  EXPECT_EQ(*nccl_ring_busbw(t, a40, {0, 1, 2, 3}).gbps, 24);
  EXPECT_FALSE(nccl_ring_busbw(t, a40, all).gbps);  // every ring crosses SYS
  auto p4d = load("xml/aws-ofi-nccl_p4d-24xl-topo.xml", "NVIDIA A100-SXM4-40GB");
  EXPECT_NEAR(*p2p_copy(t, p4d, 0, 1).gbps, 13.4, 0.01);  // PIX, Gen3 x16 from the XML; no NVLink listed
}

TEST(Measurement, VerdictThresholds) {
  Measurement m;
  m.value = 80, m.expected = 100;
  judge(m);
  EXPECT_EQ(m.status, core::Outcome::pass);
  m.value = 79.9;
  judge(m);
  EXPECT_EQ(m.status, core::Outcome::warn);
  m.value = 49.9;
  judge(m);
  EXPECT_EQ(m.status, core::Outcome::fail);
  EXPECT_NEAR(*m.pct_of_expected, 49.9, 1e-9);
  m.expected.reset();
  judge(m);
  EXPECT_EQ(m.status, core::Outcome::info);
  EXPECT_FALSE(m.pct_of_expected);
  Measurement lat;
  lat.value = 4, lat.expected = 2;  // latency twice the expectation: 50%
  judge(lat, true);
  EXPECT_EQ(lat.status, core::Outcome::warn);
  auto s = skipped("gpu0.h2d", "H2D", "GB/s", "no NVIDIA driver");
  auto j = to_json(s);
  EXPECT_TRUE(j["value"].is_null());
  EXPECT_EQ(j["status"], "SKIP");
}
