#include "measure/collective/bench_run.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "measure/collective/data_check.h"

namespace ncdx::measure {

namespace {

using core::Status;

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

CallArgs call_for(const BenchOptions& o, std::size_t bytes, int n) {
  CallArgs a;
  a.coll = o.coll;
  a.type = o.type;
  a.op = o.op;
  a.root = has_root(o.coll) ? o.root : 0;
  const std::size_t elt = size_of(o.type);
  a.counts = coll_counts(o.coll, bytes / elt, elt, n);
  return a;
}

// nccl-tests' initData: each local rank's input, in the send buffer or (in place) at its offset
// inside the receive buffer.
Status fill_inputs(Engine& e, const CallArgs& a, bool in_place) {
  const std::size_t elt = size_of(a.type);
  for (int l = 0; l < e.local_count(); ++l) {
    int g = e.first_rank() + l;
    auto in = input_pattern(a, g, e.nranks());
    std::size_t off = in_place ? a.counts.send_inplace_offset * static_cast<std::size_t>(g) * elt : 0;
    if (auto s = e.write(l, in_place, off, in.data(), in.size()); !s) return s;
  }
  return Status::ok();
}

struct CheckOutcome {
  long long wrong = 0;   // elements, summed over ranks
  int ranks_wrong = 0;   // ranks with wrong elements (nccl-tests' error count)
};

core::Result<CheckOutcome> check_once(Harness& h, Engine& e, const CallArgs& a, bool in_place) {
  if (auto s = fill_inputs(e, a, in_place); !s) return s;
  if (auto s = e.start(a, in_place); !s) return s;
  if (auto s = e.complete(); !s) return s;
  long long wrong = 0;
  int ranks_wrong = 0;
  for (int l = 0; l < e.local_count(); ++l) {
    int g = e.first_rank() + l;
    if (!e.has_output(l, a)) continue;
    auto want = expected_output(a, g, e.nranks());
    if (want.empty()) continue;
    std::vector<unsigned char> got(want.size());
    if (auto s = e.read_output(l, a, in_place, got.data(), got.size()); !s) return s;
    long long w = count_wrong(a, want, got);
    wrong += w;
    ranks_wrong += w > 0;
  }
  CheckOutcome c;
  c.wrong = static_cast<long long>(h.sum(static_cast<double>(wrong)));
  c.ranks_wrong = static_cast<int>(h.sum(ranks_wrong));
  return c;
}

double average_over(Harness& h, double v, int mode) {
  switch (mode) {
    case 0: return h.bcast0(v);
    case 2: return h.min(v);
    case 3: return h.max(v);
    default: return h.sum(v) / h.size();
  }
}

struct PassOut {
  PlaceResult r;
  int ranks_wrong = 0;
  std::vector<std::vector<double>> arrival;  // [iter][process], on process 0
};

core::Result<PassOut> run_pass(Harness& h, Engine& e, const BenchOptions& o, const CallArgs& a, bool in_place,
                               double offset_us) {
  PassOut out;
  const int n = e.nranks();
  if (o.check > 0)
    if (auto s = fill_inputs(e, a, in_place); !s) return s;
  // BenchTime: one call to synchronise, then a barrier.
  if (auto s = e.start(a, in_place); !s) return s;
  if (auto s = e.complete(); !s) return s;
  h.barrier();

  std::vector<double> arrive(static_cast<std::size_t>(o.iters)), took(static_cast<std::size_t>(o.iters));
  const double t0 = now_us();
  for (int it = 0; it < o.iters; ++it) {
    double t = now_us();
    arrive[static_cast<std::size_t>(it)] = t - offset_us;
    if (auto s = e.start(a, in_place); !s) return s;
    if (e.synchronous()) took[static_cast<std::size_t>(it)] = now_us() - t;
  }
  if (auto s = e.complete(); !s) return s;
  double delta_s = (now_us() - t0) / 1e6 / o.iters;
  if (!e.synchronous()) {
    // Asynchronous libraries: per-iteration times come from a second loop that waits after each
    // call (host timing; the time column above stays nccl-tests' asynchronous mean).
    for (int it = 0; it < o.iters; ++it) {
      double t = now_us();
      if (auto s = e.start(a, in_place); !s) return s;
      if (auto s = e.complete(); !s) return s;
      took[static_cast<std::size_t>(it)] = now_us() - t;
    }
  }
  delta_s = average_over(h, delta_s, o.average);
  auto bw = bandwidth(a.coll, a.counts.param, size_of(a.type), delta_s, n);
  out.r.time_us = delta_s * 1e6;
  out.r.algbw_gbps = bw.algbw_gbps;
  out.r.busbw_gbps = bw.busbw_gbps;
  h.barrier();

  if (o.check > 0) {
    long long wrong = 0;
    for (int c = 0; c < o.check; ++c) {
      auto r = check_once(h, e, a, in_place);
      if (!r) return r.status();
      wrong = r->wrong;
      out.ranks_wrong = r->ranks_wrong;
      if (wrong) break;
    }
    out.r.wrong = wrong;
  }

  // Per-iteration: the slowest process of each iteration, as nccl-tests' -I report.
  auto all_took = h.gather0(took);
  auto all_arrive = h.gather0(arrive);
  if (h.rank() == 0) {
    const int p = h.size();
    std::vector<double> worst(static_cast<std::size_t>(o.iters), 0.0);
    out.arrival.assign(static_cast<std::size_t>(o.iters), std::vector<double>(static_cast<std::size_t>(p)));
    for (int q = 0; q < p; ++q)
      for (int it = 0; it < o.iters; ++it) {
        auto idx = static_cast<std::size_t>(q * o.iters + it);
        worst[static_cast<std::size_t>(it)] = std::max(worst[static_cast<std::size_t>(it)], all_took[idx]);
        out.arrival[static_cast<std::size_t>(it)][static_cast<std::size_t>(q)] = all_arrive[idx];
      }
    out.r.iter = iter_stats(worst);
  }
  return out;
}

}  // namespace

ArrivalSkew arrival_skew(const std::vector<std::vector<double>>& arrival) {
  ArrivalSkew s;
  if (arrival.empty() || arrival.front().empty()) return s;
  const std::size_t p = arrival.front().size();
  std::vector<double> spread;
  std::vector<int> last_count(p, 0);
  s.mean_lateness_us.assign(p, 0.0);
  for (const auto& row : arrival) {
    if (row.size() != p) continue;
    auto [lo, hi] = std::minmax_element(row.begin(), row.end());
    spread.push_back(*hi - *lo);
    ++last_count[static_cast<std::size_t>(hi - row.begin())];
    for (std::size_t r = 0; r < p; ++r) s.mean_lateness_us[r] += row[r] - *lo;
  }
  if (spread.empty()) return s;
  for (auto& v : s.mean_lateness_us) v /= static_cast<double>(spread.size());
  auto st = iter_stats(spread);
  s.median_us = st.p50;
  s.p95_us = st.p95;
  s.max_us = st.max;
  auto it = std::max_element(last_count.begin(), last_count.end());
  s.last_rank = static_cast<int>(it - last_count.begin());
  s.last_share = static_cast<double>(*it) / static_cast<double>(spread.size());
  return s;
}

core::Result<BenchResult> run_bench(Harness& h, Engine& e, const BenchOptions& o) {
  const int n = e.nranks();
  if (auto why = e.unsupported(o.type, o.op); !why.empty()) return Status::usage(why);
  if (has_root(o.coll) && (o.root < 0 || o.root >= n))
    return Status::usage("-r/--root " + std::to_string(o.root) + " is not a rank (0.." + std::to_string(n - 1) + ")");
  if (o.iters < 1 || o.warmup < 0 || o.check < 0) return Status::usage("-n must be >= 1, -w and -c >= 0");
  const std::size_t elt = size_of(o.type);
  auto sizes = o.sizes.empty() ? size_sweep(o.min_bytes, o.max_bytes, o.step_factor, o.step_bytes) : o.sizes;
  if (sizes.empty()) return Status::usage("-b must not exceed -e");

  // Warm-up for all sizes, stepping by 2 from -b to -e (TimeTest); an explicit size list warms
  // each size. The buffers must hold the warm-up sizes too: -e can exceed the sweep's last size.
  std::vector<std::size_t> warm = o.sizes;
  if (warm.empty())
    for (std::size_t s = o.min_bytes; s <= o.max_bytes; s = s * 2) {
      warm.push_back(s);
      if (s == 0) break;
    }
  std::size_t max_send = elt, max_recv = elt;
  std::vector<std::size_t> all_sizes = sizes;
  all_sizes.insert(all_sizes.end(), warm.begin(), warm.end());
  for (std::size_t s : all_sizes) {
    auto k = coll_counts(o.coll, s / elt, elt, n);
    max_send = std::max(max_send, k.send * elt);
    max_recv = std::max({max_recv, k.recv * elt, k.send * elt});  // in place, the input sits in recv
  }
  if (auto s = e.setup(max_send, max_recv); !s) return s;

  BenchResult res;
  res.options = o;
  res.backend = e.name();
  res.library = e.library();
  res.launcher = h.launcher();
  res.nranks = n;
  res.nprocs = h.size();

  // "#  Rank ..." lines: every process describes its local ranks.
  {
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    std::string mine;
    auto devs = e.devices();
    for (int l = 0; l < e.local_count(); ++l) {
      const auto& d = devs[static_cast<std::size_t>(l)];
      mine += std::to_string(e.first_rank() + l) + "\t" + std::to_string(getpid()) + "\t" + host + "\t" +
              std::to_string(d.device) + "\t" + d.bus + "\t" + d.name + "\n";
    }
    for (const auto& block : h.gather0(mine)) {
      std::size_t pos = 0;
      while (pos < block.size()) {
        auto end = block.find('\n', pos);
        if (end == std::string::npos) end = block.size();
        std::vector<std::string> f;
        std::size_t a = pos;
        for (std::size_t b = pos; b <= end; ++b)
          if (b == end || block[b] == '\t') {
            f.push_back(block.substr(a, b - a));
            a = b + 1;
          }
        if (f.size() == 6) {
          RankDesc d;
          d.rank = std::atoi(f[0].c_str());
          d.pid = std::atoi(f[1].c_str());
          d.host = f[2];
          d.device.device = std::atoi(f[3].c_str());
          d.device.bus = f[4];
          d.device.name = f[5];
          res.ranks.push_back(d);
        }
        pos = end + 1;
      }
    }
  }

  const double offset = h.clock_offset_us();
  h.barrier();
  for (std::size_t s : warm) {
    if (o.warmup <= 0) break;
    auto a = call_for(o, s, n);
    for (int it = 0; it < o.warmup; ++it)
      if (auto st = e.start(a, false); !st) return st;
    if (auto st = e.complete(); !st) return st;
  }

  double bw_sum = 0;
  int bw_count = 0;
  for (std::size_t s : sizes) {
    auto a = call_for(o, s, n);
    BenchRow row;
    row.bytes = printed_bytes(a.counts, elt);
    row.count = a.counts.param;
    for (bool in_place : {false, true}) {
      auto p = run_pass(h, e, o, a, in_place, offset);
      if (!p) return p.status().with_context(std::string(name_of(o.coll)) + " " + std::to_string(s) + " B");
      (in_place ? row.in_place : row.out_of_place) = p->r;
      res.out_of_bounds += p->ranks_wrong;
      bw_sum += p->r.busbw_gbps;
      ++bw_count;
      if (!in_place && h.size() > 1 && h.rank() == 0) row.skew = arrival_skew(p->arrival);
    }
    res.rows.push_back(row);
  }
  res.avg_busbw_gbps = bw_count ? bw_sum / bw_count : 0;
  return res;
}

bool Engine::has_output(int local, const CallArgs& a) const {
  return a.coll != Collective::reduce || first_rank() + local == a.root;
}

}  // namespace ncdx::measure
