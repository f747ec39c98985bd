#include "measure/collective/iter_stats.h"

#include <algorithm>
#include <cmath>

namespace ncdx::measure {

namespace {
int percentile_index(int n, int pct) { return std::min(n - 1, (n * pct + 99) / 100 - 1); }
}  // namespace

IterStats iter_stats(std::vector<double> v) {
  IterStats s;
  s.n = static_cast<int>(v.size());
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.p50 = v[v.size() / 2];
  s.p95 = v[static_cast<std::size_t>(percentile_index(s.n, 95))];
  s.p99 = v[static_cast<std::size_t>(percentile_index(s.n, 99))];
  double sum = 0;
  for (double x : v) sum += x;
  s.avg = sum / s.n;
  double var = 0;
  for (double x : v) var += (x - s.avg) * (x - s.avg);
  s.stdev = std::sqrt(var / s.n);
  s.cv_pct = s.avg > 0 ? s.stdev / s.avg * 100.0 : 0.0;
  return s;
}

}  // namespace ncdx::measure
