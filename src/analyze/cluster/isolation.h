#pragma once
// Isolation of the bad node or link in a network matrix (issue #14) with robust statistics:
// the reference is a median that one bad node cannot drag (the better-side median of per-node
// medians), the spread a MAD, and a pair is bad only when it is worse than the reference by more
// than both k·σ (from 5 nodes on; fewer have no usable spread) and a relative floor — so quiet healthy clusters do not raise 1 % noise.
// A node most of whose pairs are bad is the culprit (slow-node, lossy-node, unreachable); a bad
// pair between two otherwise good nodes is a slow-link.
#include <optional>
#include <string>
#include <vector>

#include "analyze/cluster/loss_evidence.h"
#include "measure/network/net_matrix.h"

namespace ncdx::analyze {

struct NetOutlier {
  std::string kind;                // slow-link, slow-node, lossy-node, lossy-link, unreachable
  std::vector<std::string> hosts;  // one (node) or two (link)
  std::string metric;              // bandwidth_gbps, latency_us, latency_p99_us, retrans_pct, reachability
  std::optional<double> value;     // the culprit's value (median over its pairs for a node)
  std::optional<double> median;    // the cluster's reference value
  std::string evidence;            // one line with "how much worse"
  // The confirmation pass (confirm.h): null when the outlier was not re-measured alone, true when
  // it stayed worse than reference pairs measured alone, false when it vanished (then it is
  // information, not a WARN/FAIL). `alone_*`: the re-measured value and the reference's.
  std::optional<bool> confirmed{};
  std::optional<double> alone_value{}, alone_median{};
};

struct IsolationOptions {
  double k_sigma = 5;          // robust z threshold (σ = 1.4826 · MAD)
  // a pair 6 % under the reference bandwidth. The smallest fault to name is a link or node
  // 10 % slower, and a slow pair reads a little less than its cut (the connect and ack wait are
  // the same on every pair): 19 / 27 / 44 % cuts read 18.2 / 25.8 / 41.8 % under (8 namespace
  // hosts, 2026-12-06), so 10 % reads ~9.5 %, and a pair's own spread is ~1.1 % (σ of the
  // shortfall from the median of 1848 pairs in 66 healthy 8-host trials, load 3–13): 6 % is ~3σ
  // under the fault. The old 12 % floor missed cuts up to ~13 %. Healthy shortfalls there: p99
  // 3.9 %, one pair of the 1848 at 7.6 %; noisier matrices raise k·σ instead, and a pair over the
  // floor by chance is re-measured alone (confirm.h: the same 6 % there) before it is a finding.
  double bw_rel = 0.06;
  double lat_rel = 0.5;        // latency 50 % over the reference …
  // … and at least 50 µs: a TCP ping-pong through the kernel moves by tens of µs with scheduling
  // alone (a healthy 4-namespace run on 2 cores gave one pair 36 µs against a 15 µs median); the
  // faults that matter to NCCL (congestion, retransmits, a wrong path) cost hundreds of µs or more.
  double lat_abs_us = 50;
  // A pair slow by its median latency must be slow by its fastest round trip as well (the same
  // three floors against the cluster's minima): a path delay moves both, scheduling noise only the
  // median (isolation.cc). Off: the median alone, as before 2026-12-07.
  bool latency_min_gate = true;
  // Retransmitted segments, % of those sent: over 0.5 % and 3× the reference. A healthy shaped
  // link retransmits a little (tail-loss probes and RTOs under CPU load count as retransmits):
  // a healthy 4-namespace run in CI gave one pair 0.212 % against a 0.075 % median, which the old
  // 0.2 % floor called a lossy link. The injected faults (nft drops 1–10 %) retransmit ≥ 1 % or
  // time out. With fewer than 5 nodes there is no spread, so the ratio is the relative test.
  double loss_pct = 0.5;
  double loss_rel = 3;
  int loss_min_retrans = 3;    // and at least this many segments
  LossEvidenceOptions loss;    // timer stalls and the row test (loss_evidence.h)
};

std::vector<NetOutlier> isolate_outliers(const measure::NetMatrix& m, const IsolationOptions& opt = {});

// Better-side median: for an even count, the better of the two middle values (`higher_better`).
double robust_median(std::vector<double> v, bool higher_better);
// Median absolute deviation from `center` (lower middle for an even count).
double robust_mad(const std::vector<double>& v, double center);

}  // namespace ncdx::analyze
