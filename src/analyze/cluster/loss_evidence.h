#pragma once
// Per-pair evidence of packet loss that is not the retransmit ratio, and the row test that turns
// it into a lossy node (issue #14, docs/CLUSTER.md "Isolation"). At 50 Mbit/s with GSO off a
// node dropping 1–10 % of its packets retransmits < 0.5 % of the segments of a pair (the drops
// are one side's data, the ratio counts both sides' ACKs too), but every lost ping waits for a
// TCP timer: round trips ≥ 200 ms (NetCell::stalls), a p99 far above the median, a ping-pong
// cut short by the budget. Each of these also happens now and then on a healthy loaded host, so
// one pair proves nothing; a node is lossy when nearly all of ITS pairs show it and the pairs
// that do not touch it mostly do not (a loaded cluster where every pair spikes blames nobody),
// or when the stalls on its pairs together are far more than the other pairs' stall rate
// predicts (a test of two Poisson rates with a false-alarm bound per matrix: stall_rows below).
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
  // ... and only while at most this share of the other pairs shows loss: with half of all pairs
  // stalling now and then (a loaded cluster, 1 stall per pair), 7 of a node's 7 pairs happen by
  // chance with 0.5^7 ≈ 0.8 % per node, ~6 % per 8-node matrix (8 % measured on synthetic
  // matrices, stall_rows_test.cc); there the stall count, which weighs the background, decides.
  double share_max_background = 0.25;
  // A link between two good nodes is lossy on this evidence only with this many stalled round
  // trips AND elevated retransmits: two independent signals on the same pair, not one spike.
  int link_stalls = 3;
  // Stall-count test (stall_rows): a node dropping 1 % of its packets stalls about once per pair
  // (100 pings, one of its packets in each round trip), so only ~63 % of its pairs show a stall,
  // under node_share; summed over its pairs it has ~n−1 stalls where the rest has ~0. The test
  // compares the node's total S over its d pairs with the total R over the M pairs not touching
  // it: if every pair stalled at one rate (Poisson), S given S + R would be Binomial(S + R,
  // d / (d + M)) whatever the rate (the conditional "C-test" of two Poisson means, Przyborowski &
  // Wilenski 1940; Krishnamoorthy & Thomson, J. Stat. Plan. Inference 119 (2004) 23–35). A node
  // is lossy when that tail is ≤ stall_alpha / n (Bonferroni over the n nodes: ≤ stall_alpha
  // false alarms per matrix under that null, at any background rate), S ≥ stall_min, and S ≥
  // stall_ratio × d·(R + 1)/M (an effect size: on a big cluster a slightly busier node is not
  // lossy), and the stalls come from ≥ stall_min_pairs of its pairs (a lossy node's drops hit
  // its pairs at random; a loaded host's stalls bunch on the few pairs that ran while it was
  // starved: 5 stalls on 3 of 7 pairs with a quiet rest is the sporadic test's pattern). Within
  // a pair they bunch too (one descheduled rank stalls several pings), so a pair counts at most
  // stall_cap stalls and the counts are divided by the rest's dispersion (variance / mean, at
  // least 1: quasi-Poisson). Why these values: docs/CLUSTER.md "The stall-count rule".
  double stall_alpha = 0.01;
  int stall_cap = 3;
  int stall_min = 4;
  int stall_min_pairs = 4;  // or all of the node's pairs when it has fewer
  double stall_ratio = 3;
};

// What one pair shows. `ping_iters` is the number of samples asked for (0: unknown);
// `pair_budget_s` the matrix's per-pair budget (0: unknown). A ping-pong cut short is loss
// evidence only when its latency does not explain the cut: the samples taken, at the pair's median
// round trip, used under half of the ping-pong's share of the budget (the rest went to stalls). A
// 20 ms round trip (a delayed node in the netns harness) fits ~75 of 105 round trips into 1.6 s
// and was named a lossy node before this: cut short, no stall, no retransmit.
struct PairLoss {
  int stalls = 0;
  bool p99_stall = false, cut_short = false, retrans_up = false;
  bool any() const { return stalls > 0 || p99_stall || cut_short || retrans_up; }
  std::string why() const;  // "2 round trips ≥ 200 ms, p99 …" for the evidence line
};
PairLoss pair_loss(const measure::NetCell& ab, const measure::NetCell& ba, int ping_iters, double retrans_ref_pct,
                   const LossEvidenceOptions& opt = {}, double pair_budget_s = 0);

// The row test over an n-node matrix: `judged[k]`/`bad[k]` for the pair (a[k], b[k]).
struct PairMark {
  int a = 0, b = 0;
  bool judged = false, bad = false;
  int stalls = 0;  // round trips ≥ 200 ms on the pair (PairLoss::stalls), for stall_rows
};
std::vector<bool> rows_that_stand_out(int n, const std::vector<PairMark>& pairs, const LossEvidenceOptions& opt = {});

// The stall-count test per node (see LossEvidenceOptions::stall_alpha).
struct StallRow {
  bool lossy = false;
  int stalls = 0;         // on the node's judged pairs, each capped at stall_cap
  double expected = 0;    // d·(R + 1)/M: what the other pairs' rate predicts for as many pairs
  double dispersion = 1;  // of the other pairs' capped counts (variance / mean, at least 1)
  double p = 1;           // the conditional binomial tail of the (dispersion-scaled) counts
};
std::vector<StallRow> stall_rows(int n, const std::vector<PairMark>& pairs, const LossEvidenceOptions& opt = {});

// P(X ≥ k) for X ~ Binomial(trials, q), summed upward from k (no 1 − CDF cancellation in the
// far tail).
double binomial_tail(int k, int trials, double q);

}  // namespace ncdx::analyze
