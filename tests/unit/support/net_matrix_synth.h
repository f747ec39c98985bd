#pragma once
// A synthetic healthy network matrix for the cluster isolation tests: every pair "ok", latency
// ~30 µs, the given bandwidth, ±noise (uniform, seeded), a few background retransmits.
#include <algorithm>
#include <random>
#include <string>

#include "measure/network/net_matrix.h"

namespace ncdx::testing {

inline measure::NetMatrix synthetic_matrix(int n, double gbps, double noise, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  measure::NetMatrix m;
  m.ping_iters = 100;
  for (int i = 0; i < n; ++i) m.hosts.push_back("n" + std::to_string(i));
  m.cell.assign(n, std::vector<measure::NetCell>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      auto& c = m.cell[i][j];
      if (i == j) {
        c.status = "self";
        continue;
      }
      c.status = "ok";
      c.lat_median_us = 30 * (1 + u(rng));
      c.lat_p99_us = 60 * (1 + u(rng));
      c.gbps = gbps * (1 + u(rng));
      c.retrans = (i + j) % 2;
      c.segs_out = 2000;
      if (i < j) c.samples = 100;  // the client (lower node) ran the ping-pong
    }
  return m;
}

// The client cell of pair (a, b): where the ping-pong's samples (and its stalls) live.
inline measure::NetCell& client_cell(measure::NetMatrix& m, int a, int b) {
  return m.cell[std::min(a, b)][std::max(a, b)];
}

// `stalls` lost pings on the pair: round trips of ~200–400 ms (RTO) among ~30 µs ones; from two
// on, the p99 of 100 samples (about the second largest) is one of them.
inline void add_stalls(measure::NetMatrix& m, int a, int b, int stalls) {
  auto& c = client_cell(m, a, b);
  c.stalls = stalls;
  if (stalls >= 2) c.lat_p99_us = 150e3;
}

// Scales both directions of the pair's bandwidth.
inline void scale_link(measure::NetMatrix& m, int a, int b, double factor) {
  *m.cell[a][b].gbps *= factor;
  *m.cell[b][a].gbps *= factor;
}

}  // namespace ncdx::testing
