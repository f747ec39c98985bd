#pragma once
// Synthetic multi-rank timelines with a known truth, for the timeline analysis tests and the
// accuracy sweep (bench/timeline_sweep.cc). Each step: every rank computes (Gaussian noise), then
// one blocking all-reduce that ends for all when the last rank arrived plus the transfer time —
// the lock-step a data-parallel job has. Injected: one rank computing slower from a step
// (straggler and compute-side fail-slow), or every transfer slower from a step (fabric).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "analyze/timeline/trace_model.h"

namespace ncdx::testing {

struct SynthSpec {
  int ranks = 8;
  int steps = 60;
  double compute_us = 20000;
  double transfer_us = 4000;
  double noise = 0.02;        // relative standard deviation of each duration
  int slow_rank = -1;         // compute slower on this rank from slow_from
  bool slow_comm = false;     // transfers slower on every rank from slow_from
  int slow_from = -1;
  int slow_until = -1;        // transient when >= 0 (first step back to normal)
  double factor = 1.0;
  double clock_skew_us = 0;   // each rank's clock off by up to ± this
  std::uint64_t seed = 1;
  // After the all-reduce, a ring shift of point-to-point ops (each rank computes p2p_compute_us —
  // slower on slow_rank like its step compute — then sends to r+1 and receives from r-1; both ends
  // of a transfer end when the later one posted plus the transfer), ops naming their peer.
  bool p2p_ring = false;
  double p2p_compute_us = 5000, p2p_us = 2000;
  int slow_link = -1;         // the link (slow_link, slow_link+1) transfers factor× slower from slow_from
};

inline analyze::timeline::TraceSet synth_timeline(const SynthSpec& s) {
  using namespace analyze::timeline;
  TraceSet set;
  std::mt19937_64 rng(s.seed);
  std::normal_distribution<double> g(0, 1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uint32_t coll = set.strings.id("allreduce");
  std::uint32_t sendc = s.p2p_ring ? set.strings.id("send") : 0, recvc = s.p2p_ring ? set.strings.id("recv") : 0;
  set.ranks.resize(s.ranks);
  std::vector<Ns> skew(s.ranks);
  for (int r = 0; r < s.ranks; ++r) {
    set.ranks[r].rank = r;
    set.ranks[r].format = "kineto";
    set.ranks[r].file = "synth/rank" + std::to_string(r);
    set.ranks[r].gpu = true;
    set.ranks[r].comm_source = CommSource::nccl_kernel;
    skew[r] = static_cast<Ns>(s.clock_skew_us * 1000 * u(rng));
  }
  double t = 1e6;  // µs
  std::vector<double> arrive(s.ranks);
  for (int step = 0; step < s.steps; ++step) {
    bool slow = s.slow_from >= 0 && step >= s.slow_from && (s.slow_until < 0 || step < s.slow_until);
    double last = 0;
    for (int r = 0; r < s.ranks; ++r) {
      double c = s.compute_us * std::max(0.2, 1 + s.noise * g(rng));
      if (slow && r == s.slow_rank) c *= s.factor;
      arrive[r] = t + c;
      last = std::max(last, arrive[r]);
    }
    double x = s.transfer_us * std::max(0.2, 1 + s.noise * g(rng));
    if (slow && s.slow_comm) x *= s.factor;
    double done = last + x;
    std::vector<double> step_end(s.ranks, done + 50);
    std::vector<std::pair<double, double>> send(s.ranks), recv(s.ranks);  // (start, end) per rank, µs
    if (s.p2p_ring) {
      std::vector<double> post(s.ranks);
      for (int r = 0; r < s.ranks; ++r) {
        double c = s.p2p_compute_us * std::max(0.2, 1 + s.noise * g(rng));
        if (slow && r == s.slow_rank) c *= s.factor;
        post[r] = done + c;
      }
      for (int r = 0; r < s.ranks; ++r) {
        int to = (r + 1) % s.ranks;
        double d = s.p2p_us * std::max(0.2, 1 + s.noise * g(rng));
        if (slow && r == s.slow_link) d *= s.factor;
        double end = std::max(post[r], post[to]) + d;
        send[r] = {post[r], end};
        recv[to] = {post[to], end};
      }
      double all = 0;
      for (int r = 0; r < s.ranks; ++r) all = std::max(all, std::max(send[r].second, recv[r].second));
      std::fill(step_end.begin(), step_end.end(), all + 50);
      done = all;
    }
    for (int r = 0; r < s.ranks; ++r) {
      RankTrace& rt = set.ranks[r];
      auto ns = [&](double us) { return static_cast<Ns>(us * 1000) + skew[r]; };
      add_span(rt.compute, ns(t), ns(arrive[r]));
      CommOp op;
      op.start = ns(arrive[r]);
      op.end = ns(done);
      op.coll = coll;
      op.bytes = 64 << 20;
      rt.comm.push_back(op);
      if (s.p2p_ring) {
        int to = (r + 1) % s.ranks, from = (r + s.ranks - 1) % s.ranks;
        for (auto [io, peer, id] : {std::tuple{send[r], to, sendc}, std::tuple{recv[r], from, recvc}}) {
          CommOp p;
          p.start = ns(io.first);
          p.end = ns(io.second);
          p.coll = id;
          p.bytes = 16 << 20;
          p.peer = peer;
          rt.comm.push_back(p);
        }
      }
      rt.steps.push_back({step, ns(t), ns(step_end[r])});
      rt.first = std::min(rt.first, ns(t));
      rt.last = std::max(rt.last, ns(step_end[r]));
    }
    t = done + 100;
  }
  return set;
}

}  // namespace ncdx::testing

#include "analyze/timeline/result.h"

namespace ncdx::testing {

// How one analysed run compares with its injected truth.
struct SweepOutcome {
  bool straggler_expected = false, straggler_top1 = false, straggler_false = false;
  bool slowdown_expected = false, slowdown_found = false;  // found: right rank, within 5 steps
  int slowdowns_reported = 0, slowdowns_correct = 0;
};

inline SweepOutcome evaluate(const SynthSpec& s, const analyze::timeline::TimelineResult& r) {
  SweepOutcome o;
  o.straggler_expected = s.slow_rank >= 0 && s.factor > 1;
  bool sig = !r.stragglers.empty() && r.stragglers[0].significant;
  o.straggler_top1 = o.straggler_expected && sig && r.stragglers[0].rank == s.slow_rank;
  o.straggler_false = !o.straggler_expected && sig;
  o.slowdown_expected = s.factor >= 1.10 && s.slow_from >= 0;
  int want_rank = s.slow_comm ? -1 : s.slow_rank;
  for (const auto& d : r.slowdowns) {
    ++o.slowdowns_reported;
    bool ok = o.slowdown_expected && d.rank == want_rank && std::abs(d.from_step - s.slow_from) <= 5;
    if (ok) {
      ++o.slowdowns_correct;
      o.slowdown_found = true;
    }
  }
  return o;
}

// The i-th run of the sweep: ranks 8..1024, slowdowns 1.10..2.0 from a random step, one in six
// healthy, one in five with clock offsets between ranks, one in four on the communication side.
inline SynthSpec sweep_spec(int i) {
  std::mt19937_64 rng(static_cast<std::uint64_t>(1000 + i));
  static const int sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024};
  SynthSpec s;
  s.seed = static_cast<std::uint64_t>(i + 1);
  s.ranks = sizes[rng() % 8];
  s.steps = 40 + static_cast<int>(rng() % 41);
  if (i % 6 == 5) return s;  // healthy
  std::uniform_real_distribution<double> f(1.10, 2.0);
  s.factor = f(rng);
  s.slow_from = 8 + static_cast<int>(rng() % static_cast<std::uint64_t>(s.steps - 16));
  if (i % 4 == 3) s.slow_comm = true;
  else s.slow_rank = static_cast<int>(rng() % static_cast<std::uint64_t>(s.ranks));
  if (i % 5 == 4) s.clock_skew_us = 20000;
  return s;
}

}  // namespace ncdx::testing
