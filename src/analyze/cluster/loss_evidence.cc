#include "analyze/cluster/loss_evidence.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ncdx::analyze {

std::string PairLoss::why() const {
  std::string s;
  auto add = [&](const std::string& x) { s += (s.empty() ? "" : ", ") + x; };
  if (stalls) add(fmt::format("{} round trip{} ≥ 200 ms", stalls, stalls == 1 ? "" : "s"));
  if (p99_stall) add("p99 ≥ 100 ms");
  if (cut_short) add("ping-pong cut short by the budget");
  if (retrans_up) add("retransmits above the cluster's");
  return s;
}

PairLoss pair_loss(const measure::NetCell& ab, const measure::NetCell& ba, int ping_iters, double retrans_ref_pct,
                   const LossEvidenceOptions& opt, double pair_budget_s) {
  PairLoss e;
  // The ping-pong runs on the lower node's client socket: its cell has the samples; take both
  // in case a matrix was assembled the other way round.
  for (const auto* c : {&ab, &ba}) {
    e.stalls += c->stalls;
    if (c->lat_p99_us && c->lat_median_us && *c->lat_p99_us >= opt.p99_stall_us &&
        *c->lat_p99_us >= opt.p99_ratio * *c->lat_median_us)
      e.p99_stall = true;
    if (ping_iters > 0 && c->samples > 0 && c->samples < ping_iters) {
      // one-way median × 2 = the round trip; the share starts at the connect, so use half of it
      const double used_s = c->samples * 2 * c->lat_median_us.value_or(0) / 1e6;
      const bool slow_not_lossy = pair_budget_s > 0 && used_s >= 0.5 * measure::kPingShareOfBudget * pair_budget_s;
      if (!slow_not_lossy) e.cut_short = true;
    }
  }
  if (ab.segs_out && ba.segs_out && *ab.segs_out + *ba.segs_out > 0) {
    auto r = ab.retrans.value_or(0) + ba.retrans.value_or(0);
    double pct = 100.0 * r / static_cast<double>(*ab.segs_out + *ba.segs_out);
    e.retrans_up = static_cast<int>(r) >= opt.retrans_min && pct > opt.retrans_rel * retrans_ref_pct;
  }
  return e;
}

std::vector<bool> rows_that_stand_out(int n, const std::vector<PairMark>& pairs, const LossEvidenceOptions& opt) {
  std::vector<int> deg(n, 0), bad(n, 0);
  int judged = 0, bad_all = 0;
  for (const auto& p : pairs) {
    if (!p.judged) continue;
    ++judged, ++deg[p.a], ++deg[p.b];
    if (p.bad) ++bad_all, ++bad[p.a], ++bad[p.b];
  }
  std::vector<bool> out(n, false);
  for (int i = 0; i < n; ++i) {
    if (n < 3 || deg[i] == 0 || bad[i] < 2) continue;
    double share = static_cast<double>(bad[i]) / deg[i];
    int rest = judged - deg[i], rest_bad = bad_all - bad[i];
    double bg = rest > 0 ? static_cast<double>(rest_bad) / rest : 0;
    out[i] = share >= opt.node_share && share - bg >= opt.contrast && bg <= opt.share_max_background;
  }
  return out;
}

double binomial_tail(int k, int trials, double q) {
  if (k <= 0) return 1;
  if (k > trials || q <= 0) return 0;
  if (q >= 1) return 1;
  auto log_term = [&](int j) {
    return std::lgamma(trials + 1.0) - std::lgamma(j + 1.0) - std::lgamma(trials - j + 1.0) + j * std::log(q) +
           (trials - j) * std::log1p(-q);
  };
  double sum = 0;
  for (int j = k; j <= trials; ++j) {
    double t = std::exp(log_term(j));
    sum += t;
    if (j > trials * q && t < sum * 1e-17) break;  // past the mode the terms only shrink
  }
  return std::min(1.0, sum);
}

std::vector<StallRow> stall_rows(int n, const std::vector<PairMark>& pairs, const LossEvidenceOptions& opt) {
  std::vector<StallRow> out(n);
  if (n < 3) return out;
  // One pass for the per-node and total sums (a 1024-node plan has 523 776 pairs): the rest of
  // node i is the total minus its own pairs.
  std::vector<int> deg(n, 0), own(n, 0), hit(n, 0);
  std::vector<double> own_sq(n, 0);
  int judged = 0;
  double sum = 0, sq = 0;
  for (const auto& p : pairs) {
    if (!p.judged) continue;
    double c = std::min(p.stalls, opt.stall_cap);
    ++judged, sum += c, sq += c * c;
    for (int x : {p.a, p.b}) ++deg[x], own[x] += static_cast<int>(c), own_sq[x] += c * c, hit[x] += c > 0;
  }
  for (int i = 0; i < n; ++i) {
    auto& r = out[i];
    r.stalls = own[i];
    int rest = judged - deg[i];
    if (deg[i] == 0 || rest == 0) continue;
    double rest_sum = sum - own[i], mean = rest_sum / rest;
    if (rest > 1 && mean > 0)
      r.dispersion = std::max(1.0, (sq - own_sq[i] - rest * mean * mean) / (rest - 1) / mean);
    r.expected = deg[i] * (rest_sum + 1) / rest;
    if (own[i] < opt.stall_min || own[i] < opt.stall_ratio * r.expected ||
        hit[i] < std::min(opt.stall_min_pairs, deg[i]))
      continue;
    // Dispersion-scaled counts, rounded against a finding: the node's down, the rest's up.
    int s = static_cast<int>(std::floor(own[i] / r.dispersion));
    int t = s + static_cast<int>(std::ceil(rest_sum / r.dispersion));
    r.p = binomial_tail(s, t, static_cast<double>(deg[i]) / (deg[i] + rest));
    r.lossy = r.p <= opt.stall_alpha / n;
  }
  return out;
}

}  // namespace ncdx::analyze
