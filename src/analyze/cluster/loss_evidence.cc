#include "analyze/cluster/loss_evidence.h"

#include <fmt/format.h>

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
                   const LossEvidenceOptions& opt) {
  PairLoss e;
  // The ping-pong runs on the lower node's client socket: its cell has the samples; take both
  // in case a matrix was assembled the other way round.
  for (const auto* c : {&ab, &ba}) {
    e.stalls += c->stalls;
    if (c->lat_p99_us && c->lat_median_us && *c->lat_p99_us >= opt.p99_stall_us &&
        *c->lat_p99_us >= opt.p99_ratio * *c->lat_median_us)
      e.p99_stall = true;
    if (ping_iters > 0 && c->samples > 0 && c->samples < ping_iters) e.cut_short = true;
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
    out[i] = share >= opt.node_share && share - bg >= opt.contrast;
  }
  return out;
}

}  // namespace ncdx::analyze
