// Synthetic multi-rank incidents (tests/data/triage/make_scenarios.py): the verdict class and the
// culprit named in each scenario's expected.txt.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/triage_test_util.h"
#include "support/test_paths.h"

namespace {
namespace fs = std::filesystem;

struct Expected {
  std::string klass, host;
  std::optional<int> rank;
};

Expected read_expected(const fs::path& dir) {
  std::ifstream in(dir / "expected.txt");
  Expected e;
  std::string tok;
  while (in >> tok) {
    auto eq = tok.find('=');
    auto k = tok.substr(0, eq), v = tok.substr(eq + 1);
    if (k == "class") e.klass = v;
    if (k == "host") e.host = v;
    if (k == "rank") e.rank = std::stoi(v);
  }
  return e;
}

class Scenario : public ::testing::TestWithParam<std::string> {};

TEST_P(Scenario, VerdictAndCulprit) {
  fs::path dir = fs::path(NCDX_TEST_DATA) / "triage" / "scenarios" / GetParam();
  auto want = read_expected(dir);
  auto r = ncdx::testing::triage_paths({dir.string()});
  EXPECT_EQ(r.verdict.klass, want.klass) << "verdict " << r.verdict.id << ": " << r.verdict.summary;
  if (!want.host.empty()) {
    const auto& hs = r.verdict.culprit.hosts;
    EXPECT_NE(std::find(hs.begin(), hs.end(), want.host), hs.end()) << "culprit hosts of " << r.verdict.id;
  }
  if (want.rank) {
    const auto& rs = r.verdict.culprit.ranks;
    EXPECT_NE(std::find(rs.begin(), rs.end(), *want.rank), rs.end()) << "culprit ranks of " << r.verdict.id;
  }
}

INSTANTIATE_TEST_SUITE_P(Triage, Scenario,
                         ::testing::Values("ib-host-culprit", "oom-killed-rank", "missing-collective",
                                           "version-skew", "socket-fallback-ib", "shm-container"),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(TriageScenario, CleanLogIsNone) {
  auto r = ncdx::testing::triage_text(
      "rank0.log",
      "node0:4000:4007 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
      "node0:4000:4007 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 18000 commId 0x2 - Init COMPLETE\n");
  EXPECT_EQ(r.verdict.klass, "none");
  ASSERT_EQ(r.ranks.count(0), 1u);
  EXPECT_EQ(r.ranks.at(0).nccl_version, "2.21.5");
  EXPECT_TRUE(r.ranks.at(0).init_complete);
}

TEST(TriageScenario, ExpectTimeoutNotApplied) {
  ncdx::analyze::CorrelateOptions o;
  o.expect_timeout_s = 1800;
  auto r = ncdx::testing::triage_text(
      "rank0.log",
      "[rank0]:[E0303 10:25:02.411244289 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=3, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600071 "
      "milliseconds before timing out.\n",
      o);
  bool found = r.verdict.id == "triage.timeout-not-applied";
  for (const auto& f : r.findings) found |= f.id == "triage.timeout-not-applied";
  EXPECT_TRUE(found);
}

}  // namespace

namespace {
const char* kP2pHeader =
    "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n"
    "Device: 0, NVIDIA A100-SXM4-80GB, pciBusID: 7, pciDeviceID: 0, pciDomainID:0\n"
    "Device: 1, NVIDIA A100-SXM4-80GB, pciBusID: f, pciDeviceID: 0, pciDomainID:0\n"
    "Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)\n";
}

TEST(TriageScenario, P2pTestThatStopsInsideAMatrixIsP2pTopology) {
  auto r = ncdx::testing::triage_text("p2p.txt", kP2pHeader);
  EXPECT_EQ(r.verdict.klass, "p2p-topology") << r.verdict.id;
}

TEST(TriageScenario, CompleteP2pTestIsNotAFailure) {
  auto r = ncdx::testing::triage_text("p2p.txt", std::string(kP2pHeader) +
                                                     "   D\\D     0      1\n"
                                                     "     0 1529.61  17.63\n"
                                                     "     1  17.58 1532.30\n");
  EXPECT_EQ(r.verdict.klass, "none") << r.verdict.id;
}
