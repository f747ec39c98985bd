#include "analyze/topo/checks.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "probe/topo_smi_parse.h"
#include "probe/topo_xml_parse.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::analyze;

namespace {
probe::TopoMatrix parse(const std::string& text) {
  auto r = probe::parse_smi_topo(text, "t");
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}
probe::TopoMatrix file(const std::string& name) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/smi/" + name + ".txt");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse(ss.str());
}
std::vector<std::string> ids(const std::vector<core::Finding>& fs) {
  std::vector<std::string> v;
  for (const auto& f : fs) v.push_back(f.id);
  return v;
}
}  // namespace

TEST(TopoChecks, HealthyNvswitchNodeHasNoFindings) {
  EXPECT_TRUE(topo_findings(file("slurmv4-aihub0007-h100-12nic")).empty());
  EXPECT_TRUE(topo_findings(file("mlengineering-a100-nv12")).empty());
}

TEST(TopoChecks, GpuWithoutNvlink) {
  // The first four rows of vllm#16336 (B200, GPU2 without NVLink), with the header the paste lost.
  auto m = parse(
      "\tGPU0\tGPU1\tGPU2\tGPU3\n"
      "GPU0\t X \tNV18\tNODE\tNV18\n"
      "GPU1\tNV18\t X \tNODE\tNV18\n"
      "GPU2\tNODE\tNODE\t X \tNODE\n"
      "GPU3\tNV18\tNV18\tNODE\t X \n");
  auto fs = topo_findings(m);
  ASSERT_FALSE(fs.empty());
  EXPECT_EQ(fs[0].id, "topo-nvlink-missing");
  EXPECT_EQ(fs[0].severity, core::Severity::error);
  EXPECT_EQ(fs[0].culprit.devices, std::vector<std::string>{"GPU2"});
  EXPECT_EQ(core::exit_code_for(fs), 2);
}

TEST(TopoChecks, DegradedLinkCount) {
  auto m = parse(
      "\tGPU0\tGPU1\tGPU2\n"
      "GPU0\t X \tNV18\tNV12\n"
      "GPU1\tNV18\t X \tNV18\n"
      "GPU2\tNV12\tNV18\t X \n");
  auto fs = topo_findings(m);
  ASSERT_EQ(ids(fs), std::vector<std::string>{"topo-nvlink-degraded"});
  EXPECT_NE(fs[0].summary.find("GPU0-GPU2 NV12"), std::string::npos);
}

TEST(TopoChecks, PcieOnlyNodeGetsInfoOnly) {
  auto fs = topo_findings(file("gogpuallocator17-8x4090-sys"));
  EXPECT_EQ(ids(fs), (std::vector<std::string>{"topo-p2p-beyond-pxb", "topo-gdr-beyond-pxb"}));
  EXPECT_EQ(core::exit_code_for(fs), 0);
  // NVLink pairs across sockets: only the PCIe pairs are reported, no NVLink-missing finding.
  auto a40 = topo_findings(file("eugene-8xa40-nv4-pairs-abbrev"));
  EXPECT_EQ(ids(a40), std::vector<std::string>{"topo-p2p-beyond-pxb"});
}

TEST(TopoChecks, XmlWithoutNvlinkConcludesNothingAboutPairs) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/xml/aws-ofi-nccl_p4d-24xl-topo.xml");
  std::stringstream ss;
  ss << f.rdbuf();
  auto m = probe::parse_nccl_topo_xml(ss.str(), "p4d");
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->nvlink_known);
  EXPECT_TRUE(topo_findings(*m).empty());  // p4d has NVSwitch; the file just does not say
}
