#include "analyze/cluster/confirm.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analyze/cluster/loss_evidence.h"

namespace ncdx::analyze {
namespace {

bool confirmable(const NetOutlier& o) {
  return (o.kind == "slow-link" || o.kind == "lossy-link") ? o.hosts.size() == 2 : o.kind == "slow-node";
}

// One pair as measured alone.
struct Alone {
  bool ok = false;
  std::string status;
  std::optional<double> bw, lat, loss_pct;
  const measure::NetCell *ab = nullptr, *ba = nullptr;
};

Alone alone_of(const measure::NetMatrix& m, int a, int b) {
  Alone x;
  x.ab = &m.cell[a][b];
  x.ba = &m.cell[b][a];
  x.ok = x.ab->status == "ok" && x.ba->status == "ok";
  x.status = x.ab->status != "ok" ? x.ab->status : x.ba->status;
  if (!x.ok) return x;
  if (x.ab->gbps && x.ba->gbps) x.bw = std::min(*x.ab->gbps, *x.ba->gbps);
  x.lat = x.ab->lat_median_us;
  if (x.ab->segs_out && x.ba->segs_out && *x.ab->segs_out + *x.ba->segs_out > 0)
    x.loss_pct = 100.0 * (x.ab->retrans.value_or(0) + x.ba->retrans.value_or(0)) /
                 static_cast<double>(*x.ab->segs_out + *x.ba->segs_out);
  return x;
}

std::string num(double v) { return fmt::format("{:.3g}", v); }

// How much worse than the cluster's reference an outlier looked in the matrix, relative (0 when
// unknown): the pass re-measures the worst suspects first, and it is the yardstick for those it
// had no room for (apply_confirmation).
double severity(const NetOutlier& o) {
  if (!o.value || !o.median || *o.median <= 0) return 0;
  return o.metric == "bandwidth_gbps" ? (*o.median - *o.value) / *o.median : (*o.value - *o.median) / *o.median;
}

std::string pair_name(const NetOutlier& o) {
  return o.hosts.size() == 2 ? o.hosts[0] + "<->" + o.hosts[1] : o.hosts.empty() ? std::string("?") : o.hosts[0];
}

}  // namespace

std::vector<ConfirmPair> plan_confirmation(const measure::NetMatrix& m, const std::vector<NetOutlier>& outliers,
                                           const ConfirmOptions& opt) {
  std::vector<ConfirmPair> plan;
  std::map<std::string, int> index;
  for (int i = 0; i < static_cast<int>(m.hosts.size()); ++i) index.emplace(m.hosts[i], i);
  // References: nodes no node-level outlier names, fewest link outliers first. On a loaded
  // cluster nearly every node is on some false link (16 namespace hosts at load 12: 25 false
  // slow links touching all 16), and requiring untouched nodes would leave no reference at all;
  // a reference pair is measured alone too, so a touched-but-healthy node serves.
  const int n = static_cast<int>(m.hosts.size());
  std::vector<int> links(n, 0);
  std::vector<bool> node_named(n, false);
  bool any = false;
  for (const auto& o : outliers) {
    any = any || confirmable(o);
    for (const auto& h : o.hosts)
      if (auto it = index.find(h); it != index.end()) {
        if (o.hosts.size() == 1) node_named[it->second] = true;
        else ++links[it->second];
      }
  }
  std::vector<int> healthy;
  for (int i = 0; i < n; ++i)
    if (!node_named[i]) healthy.push_back(i);
  std::stable_sort(healthy.begin(), healthy.end(), [&](int x, int y) { return links[x] < links[y]; });
  // Without two such nodes there is no reference pair, so nothing can be judged alone.
  if (!any || opt.max_pairs <= 0 || healthy.size() < 2) return plan;
  std::set<std::pair<int, int>> suspect_links;  // never a reference
  for (const auto& o : outliers)
    if (o.hosts.size() == 2 && index.count(o.hosts[0]) && index.count(o.hosts[1]))
      suspect_links.insert(std::minmax(index[o.hosts[0]], index[o.hosts[1]]));
  for (std::size_t k = 0; k + 1 < healthy.size() && static_cast<int>(plan.size()) < opt.ref_pairs; ++k) {
    auto [a, b] = std::minmax(healthy[k], healthy[k + 1]);
    if (!suspect_links.count({a, b})) plan.push_back({a, b, "reference", -1});
  }
  const std::size_t refs = plan.size();
  std::set<std::pair<int, int>> taken;
  for (const auto& p : plan) taken.insert({p.a, p.b});
  // The worst first: where the pass cannot hold every suspect (32 namespace hosts on 2 cores at
  // load 29: 33 false slow links, docs/CLUSTER.md), the ones it leaves out are the mildest, which
  // the cleared ones then vouch for (apply_confirmation).
  std::vector<int> order(outliers.size());
  for (int k = 0; k < static_cast<int>(order.size()); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return severity(outliers[x]) > severity(outliers[y]); });
  for (int k : order) {
    const auto& o = outliers[k];
    if (!confirmable(o)) continue;
    std::vector<ConfirmPair> want;
    auto add = [&](int a, int b) {
      if (a > b) std::swap(a, b);
      if (!taken.count({a, b})) want.push_back({a, b, "suspect", k});
    };
    auto ia = index.find(o.hosts[0]);
    if (ia == index.end()) continue;
    if (o.kind == "slow-node") {
      for (int r = 0; r < opt.ref_nodes && r < static_cast<int>(healthy.size()); ++r) add(ia->second, healthy[r]);
    } else if (auto ib = index.find(o.hosts[1]); ib != index.end()) {
      add(ia->second, ib->second);
    }
    if (want.empty() || static_cast<int>(plan.size() + want.size()) > opt.max_pairs) continue;
    for (const auto& p : want) taken.insert({p.a, p.b});
    plan.insert(plan.end(), want.begin(), want.end());
  }
  if (plan.size() == refs) plan.clear();  // no suspect fitted: references alone prove nothing
  return plan;
}

void apply_confirmation(std::vector<NetOutlier>& outliers, const measure::NetMatrix& alone,
                        const std::vector<ConfirmPair>& plan, const ConfirmOptions& opt, const IsolationOptions& iso) {
  const int n = static_cast<int>(alone.cell.size());
  auto valid = [&](const ConfirmPair& p) { return p.a >= 0 && p.b < n && p.a < p.b; };
  std::vector<double> ref_bw, ref_lat, ref_loss;
  for (const auto& p : plan) {
    if (p.role != "reference" || !valid(p)) continue;
    auto x = alone_of(alone, p.a, p.b);
    if (x.bw) ref_bw.push_back(*x.bw);
    if (x.lat) ref_lat.push_back(*x.lat);
    if (x.loss_pct) ref_loss.push_back(*x.loss_pct);
  }
  std::vector<NetOutlier> links_of_cleared_nodes;
  const int judged = static_cast<int>(outliers.size());
  for (int k = 0; k < judged; ++k) {
    auto& o = outliers[k];
    if (!confirmable(o)) continue;
    std::vector<Alone> mine;
    std::vector<std::pair<int, int>> where;
    for (const auto& p : plan)
      if (p.outlier == k && p.role == "suspect" && valid(p)) {
        mine.push_back(alone_of(alone, p.a, p.b));
        where.emplace_back(p.a, p.b);
      }
    if (mine.empty()) {
      if (!plan.empty()) o.evidence += "; not re-measured alone (the confirmation pass was full)";
      continue;
    }
    const bool bw = o.metric == "bandwidth_gbps";
    const bool lat = o.metric == "latency_us";
    const auto& refs = bw ? ref_bw : lat ? ref_lat : ref_loss;
    if (refs.empty()) {
      o.evidence += "; not judged alone: no reference pair completed";
      continue;
    }
    const double ref = robust_median(refs, bw);
    int failed = 0;
    bool lossy = false;
    std::vector<double> vals;
    for (const auto& x : mine) {
      if (!x.ok) {
        ++failed;  // a suspect that fails even alone is worse than its neighbours made it look
        continue;
      }
      if (o.kind == "lossy-link") {
        auto e = pair_loss(*x.ab, *x.ba, alone.ping_iters, ref, iso.loss, alone.pair_budget_s);
        lossy = lossy || e.any();
        if (x.loss_pct) vals.push_back(*x.loss_pct);
      } else if (auto v = bw ? x.bw : x.lat) {
        vals.push_back(*v);
      }
    }
    std::optional<double> v;
    if (!vals.empty()) v = robust_median(vals, !bw);  // the worse-side median, as for the culprit
    bool worse = failed > 0 || lossy;
    if (v && o.kind != "lossy-link")
      worse = worse || (bw ? ref - *v > opt.bw_rel * ref : *v - ref > std::max(iso.lat_rel * ref, iso.lat_abs_us));
    o.confirmed = worse;
    o.alone_value = v;
    o.alone_median = ref;
    std::string unit = bw ? " Gb/s" : lat ? " µs" : " % retransmitted";
    // A slow node the median of its pairs clears may still have one pair that stays slow alone:
    // one slow link plus a neighbour-slowed pair made it look like a node (4 namespace hosts under
    // load, cluster.netns.delaylink4: h2<->h3 delayed 2.1 ms and h2<->h4 at 105 us made h2 a slow
    // node; alone h2's pairs read 13 / 23.5 / 2146 us). Each such pair is a confirmed slow link.
    if (!worse && o.kind == "slow-node" && alone.hosts.size() == static_cast<std::size_t>(n))
      for (std::size_t i = 0; i < mine.size(); ++i) {
        auto x = bw ? mine[i].bw : lat ? mine[i].lat : std::nullopt;
        if (!mine[i].ok || !x) continue;
        if (!(bw ? ref - *x > opt.bw_rel * ref : *x - ref > std::max(iso.lat_rel * ref, iso.lat_abs_us))) continue;
        NetOutlier l;
        l.kind = "slow-link";
        l.hosts = {alone.hosts[where[i].first], alone.hosts[where[i].second]};
        l.metric = o.metric;
        l.value = x;
        l.median = o.median;
        l.confirmed = true;
        l.alone_value = x;
        l.alone_median = ref;
        l.evidence = fmt::format("alone {}{} vs {}{} on {} reference pair{}: the one pair of slow-node suspect {} "
                                 "that stayed slow alone",
                                 num(*x), unit, num(ref), unit, refs.size(),
                                 refs.size() == 1 ? "" : "s", o.hosts.empty() ? std::string("?") : o.hosts[0]);
        links_of_cleared_nodes.push_back(std::move(l));
      }
    std::string what = v ? num(*v) + unit : "no value";
    if (failed) what += fmt::format(", {} of {} pair(s) failed ({})", failed, mine.size(), mine[0].status);
    o.evidence += fmt::format("; alone ({} pair{}): {} vs {}{} on {} reference pair{}: {}", mine.size(),
                              mine.size() == 1 ? "" : "s", what, num(ref), unit, refs.size(),
                              refs.size() == 1 ? "" : "s",
                              worse ? "confirmed" : "not confirmed (it was its neighbours, not this " +
                                                        std::string(o.hosts.size() == 1 ? "node" : "link") + ")");
  }
  // A suspect the pass had no room for is no worse evidence than one of its kind that looked at
  // least as bad in the same matrix and measured healthy alone: the matrix's contention made that
  // much, so this one is not confirmed either. One worse than every cleared suspect stays named.
  std::vector<NetOutlier> cleared;  // measured alone and cleared (not those cleared below)
  for (int k = 0; k < judged; ++k)
    if (outliers[k].confirmed == false) cleared.push_back(outliers[k]);
  for (int k = 0; k < judged; ++k) {
    auto& o = outliers[k];
    if (!confirmable(o) || o.confirmed || plan.empty()) continue;
    const NetOutlier* as_bad = nullptr;
    for (const auto& x : cleared) {
      if (x.kind != o.kind || x.metric != o.metric) continue;
      if (severity(x) >= severity(o) && (!as_bad || severity(x) > severity(*as_bad))) as_bad = &x;
    }
    if (!as_bad) continue;
    o.confirmed = false;
    o.evidence += fmt::format("; within this matrix's noise: {} looked worse ({:.0f} % off the median) and measured "
                              "healthy alone",
                              pair_name(*as_bad), 100 * severity(*as_bad));
  }
  for (auto& l : links_of_cleared_nodes) {
    bool known = false;
    for (const auto& o : outliers) known = known || (o.kind == l.kind && o.hosts == l.hosts);
    if (!known) outliers.push_back(std::move(l));
  }
}

}  // namespace ncdx::analyze
