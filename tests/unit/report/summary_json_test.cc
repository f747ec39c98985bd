// The one `summary` object (report/summary_json.h) and what the commands that tests/report/
// summary_check.py cannot run end to end count in it: `doctor --cluster` (needs MPI) and the
// timeline's stragglers (a synthetic lock-step job: no bundled trace has one).
#include "report/summary_json.h"

#include <gtest/gtest.h>

#include <set>

#include "analyze/cluster/cluster_run.h"
#include "analyze/timeline/result.h"
#include "report/cluster/cluster_render.h"
#include "report/timeline_render.h"
#include "support/cluster_snapshot.h"
#include "support/timeline_synth.h"

using namespace ncdx;
using core::Outcome;

namespace {

std::set<std::string> keys(const nlohmann::json& j) {
  std::set<std::string> k;
  for (const auto& [name, v] : j.items()) k.insert(name);
  return k;
}

const std::set<std::string> kKeys = {"status", "pass", "info", "warn", "fail", "skip"};

// The counts of a list of JSON items by their outcome name.
core::Tally count(const std::vector<std::string>& statuses) {
  core::Tally t;
  for (const auto& s : statuses) t.add(*core::parse_outcome(s));
  return t;
}

void expect_counts(const nlohmann::json& s, const core::Tally& want) {
  EXPECT_EQ(keys(s), kKeys);
  for (Outcome o : core::kOutcomes) {
    std::string k = core::to_string(o);
    for (auto& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(s[k].get<int>(), want.of(o)) << k;
  }
  EXPECT_EQ(s["status"], core::to_string(want.worst()));
}

analyze::NodeSnapshot node(const std::string& host, const std::string& hca) {
  auto n = ncdx::testing::healthy_node(host);
  n.inventory.env["NCCL_IB_HCA"] = hca;
  return n;
}

}  // namespace

TEST(SummaryJson, SameKeysAndTheWorstOutcome) {
  core::Tally t;
  EXPECT_EQ(report::summary_json(t)["status"], "PASS");  // nothing judged
  t.add(Outcome::skip);
  t.add(Outcome::skip);
  EXPECT_EQ(report::summary_json(t)["status"], "PASS");  // SKIP never ranks above PASS
  t.add(Outcome::info);
  EXPECT_EQ(report::summary_json(t)["status"], "INFO");
  t.add(Outcome::warn);
  t.add(Outcome::pass);
  EXPECT_EQ(report::summary_json(t)["status"], "WARN");
  t.add(Outcome::fail);
  auto j = report::summary_json(t);
  expect_counts(j, t);
  EXPECT_EQ(j["status"], "FAIL");
  EXPECT_EQ(j["skip"], 2);
}

// Cluster: every node's checks and the cross-node findings, which decide the exit code.
TEST(SummaryJson, ClusterCountsNodeChecksAndFindings) {
  analyze::ClusterRun run;
  run.launcher = "mpi";
  run.size = 3;
  for (int i = 0; i < 3; ++i) {
    analyze::ClusterNode n;
    n.snap = node("gpu" + std::to_string(i) + ".dc1", i == 2 ? "mlx5_9" : "mlx5");  // one node drifts
    n.snap.rank = i;
    n.ranks = {i};
    run.nodes.push_back(std::move(n));
  }
  run.network_skip = "not measured in this test";
  analyze::analyze_cluster(run, {});
  ASSERT_FALSE(run.findings.empty()) << "the NCCL_IB_HCA drift is a finding";
  auto j = report::render_cluster_json(run, false);
  std::vector<std::string> statuses;
  for (const auto& n : j["nodes"])
    for (const auto& c : n["checks"]) statuses.push_back(c["status"]);
  for (const auto& f : j["findings"]) {
    std::string sev = f["severity"];
    statuses.push_back(sev == "info" ? "INFO" : sev == "warn" ? "WARN" : "FAIL");
  }
  auto want = count(statuses);
  expect_counts(j["summary"], want);
  EXPECT_EQ(core::exit_code_for(want.worst()), j["exit_code"].get<int>());
}

// Timeline: a significant straggler and a slowdown are WARNs; late within chance is INFO.
TEST(SummaryJson, TimelineCountsStragglersAndSlowdowns) {
  ncdx::testing::SynthSpec straggler;
  straggler.ranks = 16;
  straggler.slow_rank = 11;
  straggler.slow_from = 25;
  straggler.factor = 1.3;
  ncdx::testing::SynthSpec fabric;
  fabric.ranks = 8;
  fabric.slow_comm = true;
  fabric.slow_from = 30;
  fabric.factor = 1.5;
  for (const auto& spec : {straggler, fabric}) {
    auto set = ncdx::testing::synth_timeline(spec);
    auto r = analyze::timeline::analyze_timeline(set, {});
    ASSERT_FALSE(r.stragglers.empty());
    auto j = report::timeline_json(r, nlohmann::json::object());
    std::vector<std::string> statuses;
    for (const auto& s : j["stragglers"]) {
      EXPECT_EQ(s["status"], s["significant"].get<bool>() ? "WARN" : "INFO");
      statuses.push_back(s["status"]);
    }
    for (const auto& s : j["slowdowns"]) statuses.push_back(s["status"]);
    expect_counts(j["summary"], count(statuses));
    EXPECT_EQ(j["summary"]["status"], "WARN");
    EXPECT_EQ(j["totals"]["ranks"], spec.ranks);  // the command's own numbers live beside the summary
  }
}
