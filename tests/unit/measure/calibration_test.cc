// Calibration of the expected-value model against real nccl-tests results
// (../shared/data/nccl_tests_results.jsonl). For every record where the model applies, the peak
// busbw is judged against the model; where the record carries a verdict (by the poster, author
// or a maintainer), ncdx's verdict must agree: "good" -> PASS, "bad" -> not PASS. The inputs
// each case takes from the record's `hardware` text are written next to it.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/json.h"
#include "measure/expected.h"
#include "measure/measurements.h"
#include "probe/topo_smi_parse.h"
#include "support/test_paths.h"

using namespace ncdx;
using namespace ncdx::measure;

namespace {

probe::TopoMatrix smi(const std::string& name, const std::string& gpu) {
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/topo/smi/" + name + ".txt");
  std::stringstream ss;
  ss << f.rdbuf();
  auto r = probe::parse_smi_topo(ss.str(), name);
  EXPECT_TRUE(r.ok());
  for (auto& g : r->gpus) g.name = gpu;
  return *r;
}

struct Case {
  Expectation expected;
  core::Outcome want;  // the verdict ncdx must give
};

}  // namespace

TEST(Calibration, ModelAgreesWithRealNcclTestsVerdicts) {
  auto t = knowledge::gpu_models();
  ASSERT_TRUE(t.ok());
  const auto& T = **t;
  auto h100 = smi("eugene-dgxh100-nv18-abbrev", "NVIDIA H100 80GB HBM3");
  auto a100 = smi("mlengineering-a100-nv12", "NVIDIA A100-SXM4-80GB");
  auto a40 = smi("eugene-8xa40-nv4-pairs-abbrev", "NVIDIA A40");
  std::map<std::string, Case> cases = {
      // DGX H100, 4 of 8 GPUs on NVSwitch (NV18): ring bound 18 x 20.6 = 370.8. Author: good.
      {"eugene-dgxh100-4gpu", {nccl_ring_busbw(T, h100, {0, 1, 2, 3}), core::Outcome::pass}},
      // A100 NVSwitch node, sendrecv (busbw = algbw = one direction of one GPU): 12 x 20 = 240. Poster: good.
      {"liplus-a100-sendrecv-1node", {nccl_pair(T, a100, 0, 1), core::Outcome::pass}},
      // A40, 2 ranks across a NODE boundary with P2P disabled: PCIe Gen4 x16 = 24. Author: bad (expected).
      {"eugene-a40-node-p2pdisable", {nccl_pair(T, a40, 0, 2), core::Outcome::fail}},
      // p4d: 4 x 100 Gb/s EFA per node. No verdict in the record.
      {"aws-eks-p4d-efa-16gpu", {network_busbw(400), core::Outcome::pass}},
      // p3dn: 1 x 100 Gb/s EFA. No verdict.
      {"aws-eks-p3dn-efa-16gpu", {network_busbw(100), core::Outcome::warn}},
      // 8 nodes x 8 V100, "100G" IB (one port per node assumed). Poster: bad.
      {"nccltests78-v100-ib-allreduce", {network_busbw(100), core::Outcome::fail}},
      // one 400 Gb/s RoCE HCA, 1 GPU per node. Poster: bad.
      {"moc-h100-roce-sendrecv-1gpu", {network_busbw(400), core::Outcome::fail}},
      // the same HCA shared by 4 GPUs per node. Poster: bad.
      {"moc-h100-roce-sendrecv-4gpu", {network_busbw(400, 4), core::Outcome::fail}},
      // p5: one p5.48xlarge despite the id (its table has 8 ranks: busbw/algbw = 1.750 = 2 x 7/8,
      // docs/MODEL.md (b) correction), 8 H100 on NVSwitch: ring bound 18 x 20.6 = 370.8 (NVLS
      // goes past it). Maintainer: good. (Was judged against 32 x 100 Gb/s EFA, a 2-node reading.)
      {"aws-batch-p5-2node", {nccl_ring_busbw(T, h100, {0, 1, 2, 3, 4, 5, 6, 7}), core::Outcome::pass}},
  };
  std::ifstream f(std::string(NCDX_SHARED_DIR) + "/data/nccl_tests_results.jsonl");
  if (!f) GTEST_SKIP() << "shared data not present: " << NCDX_SHARED_DIR;
  std::string line;
  int judged = 0;
  while (std::getline(f, line)) {
    auto j = core::parse_json(line, "nccl_tests_results.jsonl");
    ASSERT_TRUE(j.ok());
    auto id = (*j)["id"].get<std::string>();
    auto it = cases.find(id);
    if (it == cases.end()) continue;  // NIC speed not in the record (dstack B200, GCP TCPXO)
    Measurement m;
    m.id = id;
    m.value = (*j)["parsed"]["peak_busbw_gbps"].get<double>();
    m.expected = it->second.expected.gbps;
    ASSERT_TRUE(m.expected) << id << ": " << it->second.expected.basis;
    judge(m);
    std::string label = (*j)["verdict"]["label"].get<std::string>();
    std::printf("%-32s measured %8.2f GB/s  expected %7.2f  %5.0f%%  %s  (record: %s)\n", id.c_str(), *m.value,
                *m.expected, *m.pct_of_expected, to_string(m.status), label.c_str());
    EXPECT_EQ(m.status, it->second.want) << id;
    if (label.rfind("good", 0) == 0) { EXPECT_EQ(m.status, core::Outcome::pass) << id; }
    if (label.rfind("bad", 0) == 0) { EXPECT_NE(m.status, core::Outcome::pass) << id; }
    ++judged;
  }
  EXPECT_EQ(judged, static_cast<int>(cases.size()));
}
