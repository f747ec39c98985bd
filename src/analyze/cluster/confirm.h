#pragma once
// The confirmation pass of the network matrix (issue #14, docs/CLUSTER.md "Confirmation"): what a
// careful operator does before blaming a link or node — measure the suspect again with nothing
// else running. The round-robin matrix streams N/2 pairs at once; where nodes share CPUs (or a
// switch is oversubscribed) a healthy pair can look slow only because of its neighbours (16
// namespace hosts on 2 cores: 1–4 false slow links per trial, docs/CLUSTER.md). Each suspect pair
// (a slow or lossy link; a slow node against 2–3 healthy reference nodes) is re-measured alone,
// one pair at a time, next to a few pairs between healthy nodes measured the same way, and the
// outlier stands only when it is still worse than those references.
#include <string>
#include <vector>

#include "analyze/cluster/isolation.h"
#include "measure/network/net_matrix.h"

namespace ncdx::analyze {

struct ConfirmOptions {
  // At most this many pairs re-measured, one after another: the pass costs at most
  // max_pairs × pair budget (--plan shows it), typically max_pairs × the pair's own time
  // (~1.1 s at 50 Mbit/s with 3 × 1 MB each way). 0 turns the pass off.
  int max_pairs = 12;
  int ref_pairs = 3;  // pairs between healthy nodes: the yardstick measured alone
  int ref_nodes = 3;  // healthy partners of a suspect slow node
  // Alone, a suspect is confirmed when its bandwidth is this much under the references' median
  // (latency: the isolation's floors). The matrix's floor (isolation.h): alone a healthy pair
  // varies less (three reference pairs alone within 0.3 % of each other; docs/CLUSTER.md
  // "Confirmation"), and a 10 % slower link still reads ~9.5 % under.
  double bw_rel = 0.06;
};

struct ConfirmPair {
  int a = 0, b = 0;        // matrix indices, a < b
  std::string role;        // "suspect" or "reference"
  int outlier = -1;        // for a suspect: its index in the outliers the plan was made from
};

// Which pairs to re-measure (references first, then suspects, the worst first — relative distance
// from the cluster's median — as long as they fit in max_pairs; a slow node's pairs all or none).
// Only slow-link, slow-node and lossy-link outliers are re-tested.
std::vector<ConfirmPair> plan_confirmation(const measure::NetMatrix& m, const std::vector<NetOutlier>& outliers,
                                           const ConfirmOptions& opt = {});
// Sets confirmed / alone_value / alone_median (and appends to the evidence) of every outlier the
// plan re-measured; `alone` holds the cells measured in the pass. One left out for lack of room
// is not confirmed either when a suspect of its kind and metric that looked at least as bad was
// cleared alone; else it stays unjudged (named).
void apply_confirmation(std::vector<NetOutlier>& outliers, const measure::NetMatrix& alone,
                        const std::vector<ConfirmPair>& plan, const ConfirmOptions& opt = {},
                        const IsolationOptions& iso = {});

}  // namespace ncdx::analyze
