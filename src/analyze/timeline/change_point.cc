// find_slowdown (change_point.h). Two passes of the split search at most: the strongest split,
// then (inside the slow part) the return to normal, or (before a drop) the rise that it ends.
#include "analyze/timeline/change_point.h"

#include <algorithm>
#include <cmath>

namespace ncdx::analyze::timeline {
namespace {

struct Split {
  std::size_t k = 0;
  double t = 0;  // signed: > 0 when the part after k is higher
};

// The split of x[lo,hi) with the largest |t| (two-sample t of the means, pooled variance).
Split best_split(const std::vector<double>& x, std::size_t lo, std::size_t hi, std::size_t m, int sign) {
  Split best;
  std::size_t n = hi - lo;
  if (n < 2 * m) return best;
  std::vector<double> s(n + 1, 0), q(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    s[i + 1] = s[i] + x[lo + i];
    q[i + 1] = q[i] + x[lo + i] * x[lo + i];
  }
  for (std::size_t k = m; k + m <= n; ++k) {
    double n1 = static_cast<double>(k), n2 = static_cast<double>(n - k);
    double m1 = s[k] / n1, m2 = (s[n] - s[k]) / n2;
    double ss = (q[k] - n1 * m1 * m1) + (q[n] - q[k] - n2 * m2 * m2);
    double var = std::max(ss / std::max(1.0, static_cast<double>(n) - 2), 1e-30);
    double t = (m2 - m1) / std::sqrt(var * (1 / n1 + 1 / n2));
    if (sign > 0 && t <= 0) continue;
    if (sign < 0 && t >= 0) continue;
    if (std::fabs(t) > std::fabs(best.t)) best = {lo + k, t};
  }
  return best;
}

double median_of(const std::vector<double>& x, std::size_t lo, std::size_t hi) {
  return median(std::vector<double>(x.begin() + static_cast<long>(lo), x.begin() + static_cast<long>(hi)));
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(h), v.end());
  double hi = v[h];
  if (v.size() % 2) return hi;
  double lo = *std::max_element(v.begin(), v.begin() + static_cast<long>(h));
  return (lo + hi) / 2;
}

std::optional<ChangePoint> find_slowdown(const std::vector<double>& x, double min_factor, std::size_t m) {
  std::size_t n = x.size();
  if (m < 2) m = 2;
  if (n < 2 * m) return std::nullopt;
  Split s = best_split(x, 0, n, m, 0);
  if (s.k == 0) return std::nullopt;
  std::size_t start = s.k, stop = n;
  std::optional<std::size_t> back;
  if (s.t < 0) {
    // The strongest split is a drop: the end of a slow stretch, whose start lies before it.
    Split up = best_split(x, 0, s.k, m, +1);
    if (up.k == 0) return std::nullopt;
    start = up.k;
    stop = s.k;
    back = s.k;
  } else {
    Split down = best_split(x, start, n, m, -1);
    if (down.k != 0) {
      double before = median_of(x, 0, start);
      double tail = median_of(x, down.k, n);
      double slow = median_of(x, start, down.k);
      if (tail <= before + 0.25 * (slow - before)) {
        stop = down.k;
        back = down.k;
      }
    }
  }
  ChangePoint cp;
  cp.at = start;
  cp.back_at = back;
  cp.before = median_of(x, 0, start);
  cp.after = median_of(x, start, stop);
  if (!(cp.before > 0) || !(cp.after > cp.before)) return std::nullopt;
  cp.factor = cp.after / cp.before;
  if (cp.factor < min_factor) return std::nullopt;
  // Robust significance: the level difference over a scale from the residuals' MAD.
  std::vector<double> res;
  res.reserve(n);
  double tail_level = back ? median_of(x, stop, n) : cp.after;
  for (std::size_t i = 0; i < n; ++i) {
    double c = i < start ? cp.before : i < stop ? cp.after : tail_level;
    res.push_back(std::fabs(x[i] - c));
  }
  double scale = 1.4826 * median(std::move(res));
  double n1 = static_cast<double>(start), n2 = static_cast<double>(stop - start);
  double se = std::max(scale, 1e-3 * cp.before) * std::sqrt(1 / n1 + 1 / n2);
  if ((cp.after - cp.before) / se < 6.0) return std::nullopt;
  // Consistency (a Mann-Whitney-like share): ≥ 90 % of (earlier, slow) pairs must have the slow
  // value above the earlier one by half the minimum factor, so a few late spikes on a noisy
  // (shared, contended) machine are not a slowdown while a real level shift always is.
  double margin = 1 + (min_factor - 1) / 2;
  std::size_t above = 0, pairs = 0;
  for (std::size_t j = start; j < stop; ++j)
    for (std::size_t i = 0; i < start; ++i, ++pairs) above += x[j] > x[i] * margin;
  if (static_cast<double>(above) < 0.9 * static_cast<double>(pairs)) return std::nullopt;
  return cp;
}

}  // namespace ncdx::analyze::timeline
