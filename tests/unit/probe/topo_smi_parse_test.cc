#include "probe/topo_smi_parse.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::probe;

namespace {
std::string slurp(const std::string& name) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/smi/" + name + ".txt");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
core::Result<TopoMatrix> parse(const std::string& name) { return parse_smi_topo(slurp(name), name); }
}  // namespace

TEST(SmiTopo, A100Nv12WithAffinity) {
  auto r = parse("mlengineering-a100-nv12");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->gpus.size(), 8u);
  EXPECT_TRUE(r->nics.empty());
  EXPECT_EQ(r->nvlink_count(0, 7), 12);
  EXPECT_EQ(r->gpus[3].cpu_affinity, "0-23");
  EXPECT_EQ(r->gpus[4].cpu_affinity, "24-47");
  EXPECT_EQ(r->gpus[4].numa_node, 1);
  EXPECT_TRUE(r->notes.empty());
}

TEST(SmiTopo, H100TwelveNicsWithLegend) {
  auto r = parse("slurmv4-aihub0007-h100-12nic");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->gpus.size(), 8u);
  ASSERT_EQ(r->nics.size(), 12u);
  EXPECT_EQ(r->nvlink_count(2, 5), 18);
  EXPECT_EQ(r->nics[5].name, "mlx5_5");
  EXPECT_EQ(r->nics[11].label, "NIC11");
  // Rail order does not follow the GPU index: GPU3 is PIX to NIC5, not NIC3.
  EXPECT_EQ(r->gpu_nic(3, 5).type, LinkType::pix);
  EXPECT_EQ(r->gpu_nic(3, 3).type, LinkType::node);
  EXPECT_EQ(r->nic_nic(3, 4).type, LinkType::pix);
  EXPECT_EQ(r->gpus[0].numa_node, 0);
  EXPECT_EQ(r->nics[0].numa_node, 0);
  EXPECT_EQ(r->gpus[7].cpu_affinity, "0-191");
}

TEST(SmiTopo, GluedCellsAreBadInputWithLine) {
  auto r = parse("slurmv4-aihub0008-h100-12nic-malformed");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::Exit::bad_input);
  const std::string msg = r.status().message();  // status() returns a copy: keep the text, not a reference
  EXPECT_NE(msg.find(":8:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("GPU5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("PIXNODE"), std::string::npos) << msg;
  EXPECT_NE(msg.find("glued"), std::string::npos) << msg;
}

TEST(SmiTopo, HeaderlessTruncatedPasteIsBadInput) {
  auto r = parse("vllm16336-b200-gpu2-nvlink-missing");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::Exit::bad_input);
  EXPECT_NE(r.status().message().find("GPU0"), std::string::npos);
}

TEST(SmiTopo, AbbreviatedMatrices) {
  auto r = parse("eugene-8xa40-nv4-pairs-abbrev");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->gpus.size(), 8u);
  EXPECT_EQ(r->gpu_gpu(0, 1).nvlinks, 4);
  EXPECT_EQ(r->gpu_gpu(0, 2).type, LinkType::node);
  EXPECT_EQ(r->gpu_gpu(0, 4).type, LinkType::sys);
  EXPECT_FALSE(r->gpus[0].numa_node);
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes[0].find("abbreviated"), std::string::npos);
  auto h = parse("eugene-dgxh100-nv18-abbrev");
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->nvlink_count(6, 7), 18);
}

TEST(SmiTopo, PcieOnlyWithNicsAndNoLegend) {
  auto r = parse("gogpuallocator17-8x4090-sys");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->nics.size(), 2u);
  EXPECT_EQ(r->nics[0].name, "");  // no legend in the paste
  EXPECT_EQ(r->gpu_nic(6, 0).type, LinkType::phb);
  EXPECT_EQ(r->gpu_gpu(0, 1).type, LinkType::sys);
  EXPECT_EQ(r->nics[0].numa_node, 1);
  EXPECT_FALSE(r->any_nvlink());
  auto p = parse("mlengineering-2gpu-phb");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->gpu_gpu(0, 1).type, LinkType::phb);
  EXPECT_FALSE(p->gpus[0].numa_node);  // N/A
  EXPECT_EQ(p->gpus[0].cpu_affinity, "0-11");
  auto n = parse("mlengineering-2gpu-nv2");
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->nvlink_count(0, 1), 2);
}

TEST(SmiTopo, SpacesInsteadOfTabsAndLegacyNames) {
  const char* text =
      "        GPU0    GPU1    mlx5_0  CPU Affinity\n"
      "GPU0     X      SOC     PHB     0-7\n"
      "GPU1    SOC      X      SOC     8-15\n"
      "mlx5_0  PHB     SOC      X\n";
  auto r = parse_smi_topo(text, "legacy");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->nics.size(), 1u);
  EXPECT_EQ(r->nics[0].name, "mlx5_0");
  EXPECT_EQ(r->gpu_gpu(0, 1).type, LinkType::soc);
  EXPECT_EQ(r->gpus[1].cpu_affinity, "8-15");
}

TEST(SmiTopo, ErrorsNameTheLine) {
  auto bad = [](const char* t) {
    auto r = parse_smi_topo(t, "in");
    EXPECT_FALSE(r.ok()) << t;
    if (!r.ok()) { EXPECT_EQ(r.status().code(), core::Exit::bad_input); }
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_NE(bad("\tGPU0\tGPU1\nGPU0\t X \tNV2\n").find("GPU1 is missing"), std::string::npos);
  EXPECT_NE(bad("\tGPU0\tGPU1\nGPU0\t X \nGPU1\tNV2\t X\n").find("in:2:"), std::string::npos);
  EXPECT_NE(bad("\tGPU0\tGPU1\nGPU0\tNV2\t X\nGPU1\tNV2\t X\n").find("diagonal"), std::string::npos);
  EXPECT_NE(bad("\tGPU0\tGPU1\nGPU0\t X \tNV2\nGPU7\tNV2\t X\n").find("GPU7"), std::string::npos);
  EXPECT_NE(bad("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV2\tzz\nGPU1\tNV2\t X\t0\n").find("CPU Affinity"),
            std::string::npos);
  bad("");
  bad("GPU0 GPU0\n");
}
