#include "analyze/cluster/cluster_plan.h"

#include <algorithm>
#include <chrono>

#include "cluster/schedule/round_robin.h"

namespace ncdx::analyze {

ClusterPlan plan_cluster(const PlanOptions& opt) {
  using Clock = std::chrono::steady_clock;
  ClusterPlan p;
  p.nodes = opt.nodes;
  p.pair_budget_s = opt.net.pair_budget_s;
  auto t0 = Clock::now();
  auto rounds = cluster::round_robin(opt.nodes);
  p.schedule_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  p.rounds = static_cast<int>(rounds.size());
  p.pairs = static_cast<long long>(opt.nodes) * (opt.nodes - 1) / 2;
  p.pairs_per_round = opt.nodes / 2;
  for (std::size_t i = 0; i < rounds.size() && i < 3; ++i) p.first_rounds.push_back(rounds[i]);
  // One pair: warm-up + timed ping-pongs, then kStreamsPerDirection streams each way, one after
  // another (+ an ack round trip each), as measure/network/net_matrix.cc runs them.
  p.assumed_gbps = opt.link_gbps;
  p.assumed_rtt_us = opt.rtt_us;
  double rtt = opt.rtt_us * 1e-6;
  double stream = static_cast<double>(opt.net.bw_bytes) * 8 / (opt.link_gbps * 1e9) + rtt;
  p.transport = opt.net.transport == "rdma" ? "rdma" : "tcp";
  p.rails = p.transport == "rdma" ? std::max(opt.rails, 1) : 1;
  p.rdma_mib = p.transport == "rdma" ? static_cast<double>(opt.net.rdma_bytes) / (1 << 20) : 0;
  if (p.transport == "rdma") {
    // net_rdma.cc: the endpoint swap and ready bytes (2 round trips), then per rail the ping-pong
    // (warm-up, timed round trips, end marker) and kStreamsPerDirection writes of rdma_bytes each way, one rail after another, and the two
    // turn bytes. QP setup is not counted (driver calls of about a millisecond per rail).
    double write = static_cast<double>(opt.net.rdma_bytes) * 8 / (opt.link_gbps * 1e9);
    p.predicted_pair_s = std::min(4 * rtt + p.rails * ((measure::kPingWarmup + opt.net.ping_iters + 1) * rtt +
                                                       2 * measure::kStreamsPerDirection * write),
                                  opt.net.pair_budget_s);
  } else {
    p.predicted_pair_s = std::min((measure::kPingWarmup + opt.net.ping_iters) * rtt + 2 * measure::kStreamsPerDirection * stream + 3 * rtt,
                                  opt.net.pair_budget_s);
  }
  p.predicted_wall_s = p.rounds * (p.predicted_pair_s + opt.round_overhead_s);
  p.worst_wall_s = p.rounds * (opt.net.pair_budget_s + opt.round_overhead_s);
  p.confirm_pairs = static_cast<int>(std::min<long long>(std::max(opt.confirm_pairs, 0), p.pairs));
  p.predicted_confirm_s = p.confirm_pairs * (p.predicted_pair_s + opt.round_overhead_s);
  p.worst_confirm_s = p.confirm_pairs * (opt.net.pair_budget_s + opt.round_overhead_s);

  // The analysis on a synthetic healthy matrix of this size (deterministic small ripple).
  measure::NetMatrix m;
  int n = opt.nodes;
  m.hosts.resize(n);
  for (int i = 0; i < n; ++i) m.hosts[i] = "node" + std::to_string(i);
  m.cell.assign(n, std::vector<measure::NetCell>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      auto& c = m.cell[i][j];
      if (i == j) {
        c.status = "self";
        continue;
      }
      double ripple = ((i * 31 + j * 17) % 7) * 0.001;
      c.status = "ok";
      c.lat_median_us = opt.rtt_us / 2 * (1 + ripple);
      c.lat_p99_us = opt.rtt_us * (1 + ripple);
      c.gbps = opt.link_gbps * (1 - ripple);
      c.retrans = 0;
      c.segs_out = 1000;
    }
  auto t1 = Clock::now();
  auto outliers = isolate_outliers(m);
  p.analysis_ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
  (void)outliers;
  return p;
}

}  // namespace ncdx::analyze
