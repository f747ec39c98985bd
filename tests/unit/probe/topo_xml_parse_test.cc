#include "probe/topo_xml_parse.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "probe/xml_reader.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::probe;

namespace {
std::string slurp(const std::string& name) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/xml/" + name + ".xml");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
core::Result<TopoMatrix> parse(const std::string& name) { return parse_nccl_topo_xml(slurp(name), name); }
LinkType gg(const TopoMatrix& m, int a, int b) { return m.gpu_gpu(a, b).type; }
}  // namespace

TEST(XmlReader, ElementsAttributesCommentsEntities) {
  auto r = parse_xml("<?xml version=\"1.0\"?>\n<!-- c -->\n<a x='1' y=\"&lt;&amp;&#65;\">\n <b/> text <!-- <c/> -->\n <c z=\"2\"></c>\n</a>\n", "t");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->name, "a");
  EXPECT_EQ(*r->attr("y"), "<&A");
  ASSERT_EQ(r->children.size(), 2u);
  EXPECT_EQ(r->children[1].line, 5);
  EXPECT_FALSE(r->attr("nope"));
}

TEST(XmlReader, ErrorsNameTheLine) {
  auto msg = [](const char* t) {
    auto r = parse_xml(t, "f.xml");
    EXPECT_FALSE(r.ok()) << t;
    EXPECT_EQ(r.status().code(), core::Exit::bad_input);
    return r.status().message();
  };
  EXPECT_NE(msg("<a>\n<b>\n</a>").find("f.xml:3:"), std::string::npos);
  EXPECT_NE(msg("<a>\n<b>\n").find("never closed"), std::string::npos);
  EXPECT_NE(msg("<a x=1/>").find("quoted"), std::string::npos);
  EXPECT_NE(msg("<!DOCTYPE a [<!ENTITY x \"y\">]><a/>").find("DOCTYPE"), std::string::npos);
  EXPECT_NE(msg("<a x='&bogus;'/>").find("entity"), std::string::npos);
  EXPECT_NE(msg("<a/><b/>").find("after the root"), std::string::npos);
  msg("");
  msg("<a x='1' x='2'/>");
  msg("<!-- never closed");
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "<a>";
  msg(deep.c_str());
}

TEST(NcclTopoXml, AwsP4dSwitchesGiveTheRightCodes) {
  auto r = parse("aws-ofi-nccl_p4d-24xl-topo");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->gpus.size(), 8u);
  ASSERT_EQ(r->nics.size(), 4u);
  EXPECT_EQ(r->gpus[0].bus_id, "0000:10:1c.0");
  EXPECT_EQ(gg(*r, 0, 1), LinkType::pix);   // same switch
  EXPECT_EQ(gg(*r, 0, 2), LinkType::node);  // other switch, same CPU
  EXPECT_EQ(gg(*r, 0, 4), LinkType::sys);   // other socket
  EXPECT_EQ(r->gpu_nic(0, 0).type, LinkType::pix);
  EXPECT_EQ(r->gpu_nic(2, 1).type, LinkType::pix);
  EXPECT_EQ(r->gpu_nic(0, 3).type, LinkType::sys);
  EXPECT_EQ(r->gpus[4].numa_node, 1);
  EXPECT_EQ(r->gpus[0].cpu_affinity, "0-23,48-71");
  EXPECT_EQ(r->gpus[0].pcie_gts, 8.0);
  EXPECT_EQ(r->gpus[0].pcie_width, 16);
  EXPECT_FALSE(r->any_nvlink());  // the file carries no <nvlink>: NCCL detects them itself
}

TEST(NcclTopoXml, AwsP5FullDetail) {
  auto r = parse("aws-ofi-nccl_p5.48xl-topo");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->gpus.size(), 8u);
  EXPECT_EQ(r->nics.size(), 32u);
  EXPECT_EQ(r->gpus[0].sm, 90);
  EXPECT_EQ(r->nics[0].name, "rdmap79s0");
  EXPECT_EQ(r->nics[0].port_gbps, 100.0);
  EXPECT_EQ(r->gpu_nic(0, 0).type, LinkType::pix);
  EXPECT_EQ(r->gpu_nic(0, 4).type, LinkType::node);
  EXPECT_EQ(r->gpus[0].pcie_gts, 32.0);
}

TEST(NcclTopoXml, AzureFiles) {
  auto v2 = parse("azure_azhpc-images_ndv2-topo");
  ASSERT_TRUE(v2.ok()) << v2.status().message();
  EXPECT_EQ(v2->gpus.size(), 8u);
  EXPECT_EQ(v2->nics.size(), 1u);
  EXPECT_EQ(v2->gpu_nic(0, 0).type, LinkType::node);
  EXPECT_EQ(v2->gpu_nic(4, 0).type, LinkType::sys);
  EXPECT_EQ(v2->notes.size(), 2u);  // indices by bus id; no <nvlink>

  auto v4 = parse("azure_azhpc-images_ndv4-topo");
  ASSERT_TRUE(v4.ok()) << v4.status().message();
  ASSERT_EQ(v4->gpus.size(), 8u);
  EXPECT_EQ(v4->nics.size(), 8u);
  EXPECT_EQ(v4->gpus[0].bus_id, "0001:00:00.0");
  EXPECT_EQ(v4->gpus[0].numa_node, 1);
  EXPECT_EQ(gg(*v4, 0, 1), LinkType::pix);  // 0001 and 0002 share switch ffff:ff:02.0
  EXPECT_EQ(v4->gpus[0].cpu_affinity, "24-47");

  auto v5 = parse("azure_azhpc-images_ndv5-topo");
  ASSERT_TRUE(v5.ok()) << v5.status().message();
  EXPECT_EQ(v5->gpus.size(), 8u);
  EXPECT_EQ(v5->nics.size(), 8u);
  EXPECT_EQ(v5->gpu_nic(0, 0).type, LinkType::pix);
  EXPECT_EQ(gg(*v5, 0, 1), LinkType::node);

  auto nc = parse("azure_azhpc-images_ncv4-topo");
  ASSERT_TRUE(nc.ok()) << nc.status().message();
  EXPECT_EQ(nc->gpus.size(), 4u);
  EXPECT_EQ(nc->nics.size(), 1u);
  EXPECT_EQ(nc->nics[0].name, "eth0");
  EXPECT_EQ(gg(*nc, 0, 1), LinkType::sys);
  EXPECT_EQ(nc->gpus[0].sm, 80);
  EXPECT_FALSE(nc->gpus[0].pcie_gts);  // link_speed=""
  // Each GPU's <nvlink target> is its own bus id: reported, not invented into a link.
  EXPECT_FALSE(nc->any_nvlink());
  EXPECT_EQ(nc->notes.size(), 4u);
}

TEST(NcclTopoXml, PartialAndGraphFilesAreBadInput) {
  for (const char* name : {"aws-ofi-nccl_g5.48xl-topo", "aws-ofi-nccl_p5.48xl-topo_2023"}) {
    auto r = parse(name);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.status().code(), core::Exit::bad_input);
    EXPECT_NE(r.status().message().find("partial"), std::string::npos) << r.status().message();
  }
  auto g = parse("azure_azhpc-images_ncv4-graph");
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("NCCL_GRAPH_FILE"), std::string::npos);
}

TEST(NcclTopoXml, NvlinksDirectAndThroughNvswitch) {
  const char* direct =
      "<system version=\"1\"><cpu numaid=\"0\">"
      "<pci busid=\"0000:01:00.0\" class=\"0x030200\"><gpu dev=\"0\" sm=\"80\">"
      "<nvlink target=\"0000:02:00.0\" count=\"4\" tclass=\"0x030200\"/></gpu></pci>"
      "<pci busid=\"0000:02:00.0\" class=\"0x030200\"><gpu dev=\"1\" sm=\"80\">"
      "<nvlink target=\"0000:01:00.0\" count=\"4\" tclass=\"0x030200\"/></gpu></pci>"
      "<pci busid=\"0000:03:00.0\" class=\"0x030200\"><gpu dev=\"2\" sm=\"80\"/></pci>"
      "</cpu></system>";
  auto r = parse_nccl_topo_xml(direct, "d");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->nvlink_count(0, 1), 4);  // listed both ways, counted once
  EXPECT_EQ(gg(*r, 0, 2), LinkType::node);
  const char* nvs =
      "<system version=\"1\"><cpu numaid=\"0\">"
      "<pci busid=\"0000:01:00.0\" class=\"0x030200\"><gpu dev=\"1\" sm=\"90\">"
      "<nvlink target=\"ffffffff:ffff:ff\" count=\"18\" tclass=\"0x068000\"/></gpu></pci>"
      "<pci busid=\"0000:02:00.0\" class=\"0x030200\"><gpu dev=\"0\" sm=\"90\">"
      "<nvlink target=\"ffffffff:ffff:ff\" count=\"18\" tclass=\"0x068000\"/></gpu></pci>"
      "</cpu></system>";
  auto s = parse_nccl_topo_xml(nvs, "s");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->nvlink_count(0, 1), 18);
  EXPECT_EQ(s->gpus[0].bus_id, "0000:02:00.0");  // ordered by dev=
  auto dup = parse_nccl_topo_xml("<system><cpu><pci busid=\"1\" class=\"0x030200\"><gpu dev=\"0\"/></pci>"
                                 "<pci busid=\"2\" class=\"0x030200\"><gpu dev=\"0\"/></pci></cpu></system>", "x");
  EXPECT_FALSE(dup.ok());
}
