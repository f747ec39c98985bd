// The bandwidth floor against real evidence: every slowlink / slownode trial of the netns accuracy
// sweep that kept its pairs (support/sweep_records.h) is isolated again, and the matrix must name
// the planted link or node, as that kind. The cuts are 10–50 % (bench/cluster_sweep.py); the 12 %
// floor before 2026-12-06 read a 14 % slow node as two slow links touching it (only 2 of its 7
// pairs read over 12 %; cluster_sweep_8nodes_102 trial 2). Extra suspects next to it are allowed
// here: the confirmation pass (confirm.h) re-measures them alone.
#include "analyze/cluster/isolation.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "support/outlier_names.h"
#include "support/sweep_records.h"

using namespace ncdx;

namespace {

// Planted faults the matrix misses, each with its reason (docs/CLUSTER.md "The sweep of
// 2026-12-07"). A miss not listed fails the test; so does a listed one that is named now (then it
// leaves the list), so the list stays what the rules do.
// - 302/43: an 11 % slow link read 10.80 % under the reference in a matrix whose 5σ was 10.82 %
//   (healthy pairs ±2 % at load 11–13): load noise against the 5σ rule, which stays (a lower k
//   makes twice the false bandwidth suspects on the healthy records).
// - 311/62: the same at load 6: a 13 % slow link read 10.6 % under, 5σ of that matrix 11.3 %.
const std::set<std::pair<std::string, int>> kKnownMisses = {{"cluster_sweep_8nodes_302_2026-12-07.jsonl", 43},
                                                             {"cluster_sweep_8nodes_311_2026-12-07.jsonl", 62}};

// Every record of kind `link_kind` (FAULT:A:B:X) or `node_kind` (FAULT:V:X): the matrix must name
// the planted link as a slow-link or the node as a slow-node (by `metric`, when not empty).
void expect_planted_named(const std::string& link_kind, const std::string& node_kind, const std::string& metric) {
  int trials = 0;
  ncdx::testing::for_each_sweep_record([&](const std::string& name, const nlohmann::json& r) {
    const std::string kind = r["kind"];
    if (kind != link_kind && kind != node_kind) return;
    ++trials;
    std::vector<std::string> f;
    std::stringstream ss(r["faults"][0].get<std::string>());
    for (std::string x; std::getline(ss, x, ':');) f.push_back(x);
    std::vector<std::string> hosts = {"h" + f[1] + ".c"};
    if (kind == link_kind) hosts.push_back("h" + f[2] + ".c");
    const std::string want = kind == link_kind ? "slow-link" : "slow-node";
    auto o = analyze::isolate_outliers(ncdx::testing::matrix_from_pairs(r["nodes"], r["pairs"]));
    bool named = false;
    for (const auto& x : o) named = named || (x.kind == want && x.hosts == hosts && (metric.empty() || x.metric == metric));
    if (kKnownMisses.count({name, r["trial"].get<int>()})) {
      EXPECT_FALSE(named) << name << " trial " << r["trial"] << " is named now: take it off kKnownMisses";
      return;
    }
    EXPECT_TRUE(named) << name << " trial " << r["trial"] << " (" << r["faults"][0] << "): "
                       << ncdx::testing::outlier_names(o);
  });
  EXPECT_GE(trials, 4) << link_kind << "/" << node_kind;
}

}  // namespace

TEST(SlowRecords, PlantedSlowLinkOrNodeIsNamed) { expect_planted_named("slowlink", "slownode", ""); }

// The delay kinds (delaylink:A:B:MS / delaynode:V:MS, 1–5 ms added round trip): the matrix must name
// the planted link or node by latency. Seed 301 trial 12 (load 19) is why a pair that timed out
// after its ping-pong is judged by its latency: h5↔h6 read 3.6 ms one-way, then its streams ran out
// of the budget, and the trial named nothing.
TEST(SlowRecords, PlantedDelayIsNamedByLatency) { expect_planted_named("delaylink", "delaynode", "latency_us"); }
