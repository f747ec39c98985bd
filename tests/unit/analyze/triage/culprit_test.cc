// Culprits and causes of whole pasted reports (tests/data/triage/incidents/frameworks.jsonl): the
// verdict's rank/device must be the one that failed, never a rank that was only waiting. Pins two
// correlation rules: the timeout cascade is looked up after the findings are sorted (a pointer
// taken before named whatever finding moved into its slot, e.g. a waiting rank's watchdog line),
// and a verdict without a rank borrows the ranks of the other failures of its class.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/triage_test_util.h"
#include "support/test_paths.h"

namespace {

ncdx::analyze::TriageResult triage_incident(const std::string& id) {
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/triage/incidents/frameworks.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    if (j.at("id") == id) return ncdx::testing::triage_text(ncdx::testing::kPastedName, j.at("log").get<std::string>());
  }
  ADD_FAILURE() << "no incident " << id;
  return {};
}

bool has(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }
bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Xid 79 in the kernel log names no rank, and in this paste neither does the "unspecified launch
// failure" line: the culprit is the GPU's PCI address, and no rank rather than a waiting one (ranks
// 2 and 21 only timed out; before the cascade was looked up after sorting, rank 2 was blamed).
TEST(TriageCulprit, GpuOffTheBusNamesTheDeviceNotAWaiter) {
  auto r = triage_incident("megatron-xid79-fallen-off-bus");
  EXPECT_EQ(r.verdict.id, "kernel.gpu-fallen-off-bus");
  EXPECT_FALSE(has(r.verdict.culprit.ranks, 2)) << "rank 2 only waited";
  EXPECT_FALSE(has(r.verdict.culprit.ranks, 21)) << "rank 21 only waited";
  EXPECT_TRUE(has(r.verdict.culprit.devices, "0000:b7:00")) << "the Xid line's PCI address";
}

// Here the rank that failed on the lost GPU printed its CUDA error with a rank prefix: the verdict
// (an nvidia-smi line without a rank) takes it.
TEST(TriageCulprit, GpuLostNamesItsBusIdAndRank) {
  auto r = triage_incident("gpu-is-lost-nvidia-smi");
  EXPECT_EQ(r.verdict.klass, "cuda-hardware");
  EXPECT_TRUE(has(r.verdict.culprit.ranks, 6));
  EXPECT_FALSE(has(r.verdict.culprit.ranks, 2)) << "rank 2 only waited";
  EXPECT_TRUE(has(r.verdict.culprit.devices, "0000:B3:00.0"));
}

// The OOM is printed inside a Ray traceback without a rank prefix; the only ranked line is a
// waiting rank's watchdog timeout, which must not become the culprit.
TEST(TriageCulprit, OomWithoutRankDoesNotBlameAWaitingRank) {
  auto r = triage_incident("verl-actor-update-cuda-oom");
  EXPECT_EQ(r.verdict.klass, "oom");
  EXPECT_FALSE(has(r.verdict.culprit.ranks, 6)) << "rank 6 only waited";
}

// The OOM's first line is Ray's wrapper (no size); the cause is rendered from the allocator's own
// line further down, which names the size and the GPU.
TEST(TriageCulprit, CauseIsRenderedFromTheLineThatNamesTheSize) {
  auto r = triage_incident("verl-actor-update-cuda-oom");
  EXPECT_NE(r.verdict.summary.find("9.28 GiB"), std::string::npos) << r.verdict.summary;
  EXPECT_EQ(r.verdict.summary.find("allocate ?"), std::string::npos) << r.verdict.summary;
}

// A verdict that names its rank keeps it: lending applies only when the verdict has none.
TEST(TriageCulprit, VerdictWithRankKeepsIt) {
  auto r = triage_incident("pytorch-forums-nvlink-uncorrectable");
  EXPECT_EQ(r.verdict.klass, "cuda-hardware");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{3});
}

}  // namespace
