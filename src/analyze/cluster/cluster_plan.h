#pragma once
// `ncdx doctor --cluster --plan N`: the round-robin schedule and the predicted wall time of the
// network matrix for N nodes, without running anything; it also times the schedule and the
// isolation on a synthetic healthy N-node matrix, so "1024 nodes in < 1 s" is checked by the
// tool itself, not asserted in a unit test.
#include <string>
#include <utility>
#include <vector>

#include "analyze/cluster/isolation.h"
#include "measure/network/net_matrix.h"

namespace ncdx::analyze {

struct PlanOptions {
  int nodes = 0;
  measure::NetOptions net;
  int confirm_pairs = 12;    // ConfirmOptions::max_pairs
  double link_gbps = 100;    // assumed per-pair TCP rate for the prediction (--plan-gbps)
  double rtt_us = 20;        // assumed small-message round trip (--plan-rtt-us)
  int rails = 1;             // with net.transport "rdma": rails per node (--plan-rails); link_gbps is per rail
  double round_overhead_s = 0.002;  // barrier + connect per round
};

struct ClusterPlan {
  int nodes = 0, rounds = 0;
  long long pairs = 0;
  int pairs_per_round = 0;
  double pair_budget_s = 0;
  double assumed_gbps = 0, assumed_rtt_us = 0;  // what the prediction assumed (PlanOptions)
  std::string transport = "tcp";  // "rdma": rails × (ping-pong + writes) per pair (net_rdma.h)
  int rails = 1;
  double rdma_mib = 0;            // written per direction per rail and stream
  double predicted_pair_s = 0;    // the measurement of one pair at the assumed rate
  double predicted_wall_s = 0;    // rounds × (pair + overhead)
  double worst_wall_s = 0;        // rounds × budget (a dead peer in every round)
  // The confirmation pass, run only when the matrix has suspects: at most confirm_pairs pairs,
  // one at a time (analyze/cluster/confirm.h).
  int confirm_pairs = 0;
  double predicted_confirm_s = 0, worst_confirm_s = 0;
  double schedule_ms = 0, analysis_ms = 0;  // measured here on a synthetic matrix
  std::vector<std::vector<std::pair<int, int>>> first_rounds;  // the first few rounds, for display
};

ClusterPlan plan_cluster(const PlanOptions& opt);

}  // namespace ncdx::analyze
