// Bottleneck windows (parts.h): stretches where communication dominates the ranks' time, and
// stretches where one rank keeps the others waiting (its arrivals far behind the rest).
#include <algorithm>
#include <cstdio>

#include "analyze/timeline/change_point.h"
#include "analyze/timeline/parts.h"

namespace ncdx::analyze::timeline::detail {
namespace {

std::string fmt_us(double us) {
  char b[64];
  if (us >= 1e6) std::snprintf(b, sizeof b, "%.2f s", us / 1e6);
  else if (us >= 1e3) std::snprintf(b, sizeof b, "%.1f ms", us / 1e3);
  else std::snprintf(b, sizeof b, "%.0f us", us);
  return b;
}

}  // namespace

std::vector<Window> find_windows(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
                                 const Heatmap& heat, Ns t0) {
  std::vector<Window> out;
  // 1. Communication-dominated buckets (mean over ranks ≥ 50 %), merged into runs.
  std::size_t cols = heat.comm_frac.empty() ? 0 : heat.comm_frac[0].size();
  std::size_t run_start = 0;
  double run_sum = 0;
  bool in_run = false;
  for (std::size_t c = 0; c <= cols; ++c) {
    double mean = 0;
    if (c < cols) {
      for (const auto& row : heat.comm_frac) mean += row[c];
      mean /= static_cast<double>(heat.comm_frac.size());
    }
    bool hot = c < cols && mean >= 0.5;
    if (hot && !in_run) {
      in_run = true;
      run_start = c;
      run_sum = 0;
    }
    if (hot) run_sum += mean;
    if (!hot && in_run) {
      in_run = false;
      Window w;
      w.kind = "comm-dominated";
      w.start_us = static_cast<double>(run_start) * heat.bucket_us;
      w.end_us = static_cast<double>(c) * heat.bucket_us;
      char b[160];
      std::snprintf(b, sizeof b, "communication %.0f %% of the time on average over %zu ranks",
                    100 * run_sum / static_cast<double>(c - run_start), heat.comm_frac.size());
      w.reason = b;
      out.push_back(w);
    }
  }
  // 2. Straggler stretches: consecutive matched collectives (in time) where the same rank is late by a big delay.
  auto late = lateness(ranks, inst);
  std::vector<std::size_t> order(inst.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return late[a].first < late[b].first; });
  std::vector<Window> lag;
  for (std::size_t i = 0; i < order.size();) {
    const Lateness& l0 = late[order[i]];
    if (!l0.big) {
      ++i;
      continue;
    }
    int r = l0.who;
    Ns s = l0.first, e = l0.end;
    double sum = 0;
    int count = 0;
    std::size_t j = i;
    for (; j < order.size(); ++j) {
      const Lateness& l = late[order[j]];
      if (l.big && l.who != r) break;
      if (!l.big) {
        // one quiet collective in between does not end the stretch
        if (j + 1 < order.size() && late[order[j + 1]].big && late[order[j + 1]].who == r) continue;
        break;
      }
      sum += l.delay;
      ++count;
      e = std::max(e, l.end);
    }
    if (count < 2) {  // one late arrival is noise, not a stretch
      i = j;
      continue;
    }
    Window w;
    w.kind = "straggler";
    w.rank = ranks[r].rank;
    w.start_us = static_cast<double>(s - t0) / 1000.0;
    w.end_us = static_cast<double>(e - t0) / 1000.0;
    w.reason = "rank " + std::to_string(ranks[r].rank) + " arrived last at " + std::to_string(count) +
               " collective(s), " + fmt_us(sum / count / 1000.0) + " after the median rank";
    lag.push_back(w);
    i = j;
  }
  std::sort(lag.begin(), lag.end(), [](const Window& a, const Window& b) { return a.end_us - a.start_us > b.end_us - b.start_us; });
  if (lag.size() > 20) lag.resize(20);
  if (out.size() > 20) {
    std::sort(out.begin(), out.end(), [](const Window& a, const Window& b) { return a.end_us - a.start_us > b.end_us - b.start_us; });
    out.resize(20);
  }
  out.insert(out.end(), lag.begin(), lag.end());
  std::sort(out.begin(), out.end(), [](const Window& a, const Window& b) {
    if (a.start_us != b.start_us) return a.start_us < b.start_us;
    return a.kind < b.kind;
  });
  return out;
}

}  // namespace ncdx::analyze::timeline::detail
