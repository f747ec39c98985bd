#pragma once
// Per-pair evidence of packet loss that is not the retransmit ratio, and the row test that turns
// it into a lossy node (issue #14, docs/CLUSTER.md "Isolation"). At 50 Mbit/s with GSO off a
// node dropping 1–10 % of its packets retransmits < 0.5 % of the segments of a pair (the drops
// are one side's data, the ratio counts both sides' ACKs too), but every lost ping waits for a
// TCP timer: round trips ≥ 200 ms (NetCell::stalls), a p99 far above the median, a ping-pong
// cut short by the budget. Each of these also happens now and then on a healthy loaded host, so
// one pair proves nothing; a node is lossy only when nearly all of ITS pairs show it and the
// pairs that do not touch it mostly do not (a loaded cluster where every pair spikes blames
// nobody).
#include <string>
#include <vector>

#include "measure/network/net_matrix.h"

namespace ncdx::analyze {

struct LossEvidenceOptions {
  // One-way p99 ≥ 100 ms, i.e. a round trip ≥ TCP_RTO_MIN (200 ms), and ≥ 20× the pair's median:
  // for matrices without a stall count (older JSON); a healthy loaded run on 2 cores had p99 in
  // the tens of µs to a few ms (docs/CLUSTER.md), a lossy host 34–208 ms.
  double p99_stall_us = 100e3;
  double p99_ratio = 20;
  // Retransmits count as evidence from this multiple of the cluster's reference ratio (no
  // absolute floor: that is what the retransmit metric itself needs) and this many segments.
  double retrans_rel = 3;
  int retrans_min = 3;
  // Row test: at least this share of a node's judged pairs, at least 2 of them, and this much
  // more than the share among the pairs that do not touch it. With sporadic evidence on 10 % of
  // random pairs, 6 of a node's 7 pairs (8 nodes) happen by chance with p ≈ 6e-6 per node.
  double node_share = 0.75;
  double contrast = 0.5;
  // A link between two good nodes is lossy on this evidence only with this many stalled round
  // trips AND elevated retransmits: two independent signals on the same pair, not one spike.
  int link_stalls = 3;
};

// What one pair shows. `ping_iters` is the number of samples asked for (0: unknown).
struct PairLoss {
  int stalls = 0;
  bool p99_stall = false, cut_short = false, retrans_up = false;
  bool any() const { return stalls > 0 || p99_stall || cut_short || retrans_up; }
  std::string why() const;  // "2 round trips ≥ 200 ms, p99 …" for the evidence line
};
PairLoss pair_loss(const measure::NetCell& ab, const measure::NetCell& ba, int ping_iters, double retrans_ref_pct,
                   const LossEvidenceOptions& opt = {});

// The row test over an n-node matrix: `judged[k]`/`bad[k]` for the pair (a[k], b[k]).
struct PairMark {
  int a = 0, b = 0;
  bool judged = false, bad = false;
};
std::vector<bool> rows_that_stand_out(int n, const std::vector<PairMark>& pairs, const LossEvidenceOptions& opt = {});

}  // namespace ncdx::analyze
