// GPU benchmarks. GpuHardware.* run the real thing (CTest label `gpu`) and skip without a
// driver; FakeCuda* drive the same code through the stand-in libraries of tests/measure/fake
// (only when CTest sets NCDX_FAKE_CUDA, see tests/measure/tests.cmake).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "measure/cuda_bench.h"
#include "measure/nccl_bench.h"

using namespace ncdx;
using namespace ncdx::measure;

namespace {
const char* fake() { return std::getenv("NCDX_FAKE_CUDA"); }
}  // namespace

TEST(GpuHardware, CopiesAndAllReduceOrCleanSkip) {
  if (fake()) GTEST_SKIP() << "fake CUDA libraries loaded";
  auto r = measure_gpu_copies(nullptr, {std::size_t{64} << 20, 5, 50, 4});
  if (!r.ran) {
    ASSERT_EQ(r.measurements.size(), 1u);
    EXPECT_EQ(r.measurements[0].status, core::Outcome::skip);
    EXPECT_FALSE(r.measurements[0].detail.empty());
    GTEST_SKIP() << "no GPU: " << r.measurements[0].detail;
  }
  for (const auto& m : r.measurements) {
    EXPECT_NE(m.status, core::Outcome::fail) << m.id << ": " << m.detail;
    if (m.status != core::Outcome::skip) { EXPECT_GT(*m.value, 0) << m.id; }
  }
  auto n = measure_nccl_allreduce(nullptr, {{std::size_t{1} << 20, std::size_t{64} << 20}, 2, 5});
  for (const auto& m : n) EXPECT_NE(m.status, core::Outcome::fail) << m.id << ": " << m.detail;
}

TEST(BusId, Canonical) {
  EXPECT_EQ(canonical_bus_id("00000000:4F:00.0"), "0000:4f:00.0");
  EXPECT_EQ(canonical_bus_id("0000:4f:00.0"), "0000:4f:00.0");
  EXPECT_EQ(canonical_bus_id("junk"), "");
  EXPECT_DOUBLE_EQ(allreduce_busbw_factor(8), 1.75);
  EXPECT_DOUBLE_EQ(allreduce_busbw_factor(2), 1.0);
}

TEST(FakeCuda, FullCopyMatrixAndAllReduceThroughDlopen) {
  if (!fake() || std::string(fake()) != "2") GTEST_SKIP() << "run by CTest test measure.fake_cuda";
  probe::TopoMatrix topo;
  topo.gpus.resize(2);
  for (int i = 0; i < 2; ++i) {
    topo.gpus[i].index = i;
    topo.gpus[i].name = "NVIDIA H100 80GB HBM3";
    topo.gpus[i].bus_id = "0000:0" + std::to_string(i + 1) + ":00.0";
  }
  topo.reset_links();
  topo.at(0, 1) = topo.at(1, 0) = probe::Link{probe::LinkType::nvlink, 18};
  auto r = measure_gpu_copies(&topo, {std::size_t{1} << 20, 2, 5, 4});
  ASSERT_TRUE(r.ran) << r.measurements[0].detail;
  // 3 local copies per GPU + bandwidth and latency for 2 ordered pairs.
  ASSERT_EQ(r.measurements.size(), 10u);
  EXPECT_EQ(r.measurements[0].id, "gpu0.h2d");
  for (const auto& m : r.measurements) {
    ASSERT_TRUE(m.value) << m.id << ": " << m.detail;
    EXPECT_NE(m.status, core::Outcome::skip) << m.id;
  }
  // Expectations were found through the bus-id mapping: H2D from Gen5 x16, P2P from NV18.
  EXPECT_NEAR(*r.measurements[0].expected, 53.6, 0.1);
  EXPECT_EQ(*r.measurements[6].expected, 450);
  EXPECT_EQ(r.measurements[6].id, "p2p.0-1.bw");
  ASSERT_TRUE(r.p2p_gbps[0][1]);
  EXPECT_FALSE(r.p2p_gbps[0][0]);
  EXPECT_FALSE(r.measurements[7].expected);  // latency: no expectation
  auto n = measure_nccl_allreduce(&topo, {{std::size_t{1} << 20, std::size_t{4} << 20}, 1, 2});
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0].status, core::Outcome::info);     // small size not judged
  ASSERT_TRUE(n[1].expected);
  EXPECT_NEAR(*n[1].expected, 370.8, 0.01);  // 18 x 20.6
  EXPECT_TRUE(n[1].pct_of_expected);
}

TEST(FakeCudaNoDevice, SkipsWithTheReason) {
  if (!fake() || std::string(fake()) != "0") GTEST_SKIP() << "run by CTest tests measure.fake_cuda_no*";
  auto r = measure_gpu_copies(nullptr);
  EXPECT_FALSE(r.ran);
  ASSERT_EQ(r.measurements.size(), 1u);
  EXPECT_EQ(r.measurements[0].status, core::Outcome::skip);
  const auto& why = r.measurements[0].detail;
  EXPECT_TRUE(why.find("no NVIDIA GPU") != std::string::npos || why.find("driver") != std::string::npos) << why;
  auto n = measure_nccl_allreduce(nullptr);
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0].status, core::Outcome::skip);
}
