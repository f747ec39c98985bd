#include "probe/topo_json.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "probe/topo_smi_parse.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::probe;

TEST(TopoJson, RoundTripKeepsEverything) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/smi/slurmv4-aihub0007-h100-12nic.txt");
  std::stringstream ss;
  ss << f.rdbuf();
  auto m = parse_smi_topo(ss.str(), "t");
  ASSERT_TRUE(m.ok());
  auto j = to_json(*m);
  EXPECT_TRUE(j["gpus"][0]["name"].is_null());  // unknown is null
  EXPECT_EQ(j["matrix"][0][1], "NV18");
  auto back = topo_from_json(j, "t.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->links, m->links);
  EXPECT_EQ(back->nics[11].name, "mlx5_11");
  EXPECT_EQ(back->gpus[5].numa_node, 0);
}

TEST(TopoJson, BadShapesAreBadInput) {
  auto j = nlohmann::json::parse(R"({"gpus":[{"index":0},{"index":1}],"matrix":[["X","NV2"],["NV2"]]})");
  auto r = topo_from_json(j, "s.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), core::Exit::bad_input);
  EXPECT_NE(r.status().message().find("matrix[1]"), std::string::npos);
  j = nlohmann::json::parse(R"({"gpus":[{"index":0},{"index":1}],"matrix":[["X","PIXX"],["NV2","X"]]})");
  EXPECT_FALSE(topo_from_json(j, "s").ok());
  EXPECT_FALSE(topo_from_json(nlohmann::json::array(), "s").ok());
  j = nlohmann::json::parse(R"({"gpus":[{"index":0},{"index":1}],"matrix":[["X",null],[null,"X"]]})");
  auto ok = topo_from_json(j, "s");
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok->gpu_gpu(0, 1).known());
}

TEST(TopoJson, ReadsDoctorSnapshotShape) {
  // The "topology" object of `ncdx doctor --json` (analyze/doctor/run.h TopoView).
  auto j = nlohmann::json::parse(R"({
    "labels": ["GPU0", "GPU1", "NIC0"],
    "devices": ["00000000:4F:00.0", "00000000:60:00.0", "mlx5_0"],
    "cells": [["X", "NV18", "PIX"], ["NV18", "X", ""], ["PIX", "NODE", "X"]],
    "cpu_affinity": ["0-47", "0-47", ""],
    "numa": ["0", "", ""]})");
  auto m = topo_from_json(j, "snap.json");
  ASSERT_TRUE(m.ok()) << m.status().message();
  ASSERT_EQ(m->gpus.size(), 2u);
  ASSERT_EQ(m->nics.size(), 1u);
  EXPECT_EQ(m->nics[0].name, "mlx5_0");
  EXPECT_EQ(m->nvlink_count(0, 1), 18);
  EXPECT_FALSE(m->gpu_nic(1, 0).known());
  EXPECT_EQ(m->at(2, 1).type, LinkType::node);
  EXPECT_EQ(m->gpus[0].numa_node, 0);
  EXPECT_FALSE(m->gpus[1].numa_node);
  EXPECT_EQ(m->gpus[0].cpu_affinity, "0-47");
  j["cells"][0][0] = "NV2";
  EXPECT_FALSE(topo_from_json(j, "snap.json").ok());
}
