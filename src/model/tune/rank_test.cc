#include "model/tune/rank_test.h"

#include <algorithm>
#include <cmath>

namespace ncdx::model::tune {
namespace {
constexpr int kExactMax = 40;

// P(U = v) under H0 for m x's and n y's, v = 0..m*n. f[i][j][v]: orderings of i x's and j y's
// with U = v; the largest element is an x (below no y: f(i-1,j,v)) or a y (above all i x's:
// f(i,j-1,v-i)). m, n are trials, so this is tiny.
std::vector<double> u_null(int m, int n) {
  const int umax = m * n;
  std::vector<std::vector<std::vector<double>>> f(m + 1, std::vector<std::vector<double>>(n + 1, std::vector<double>(umax + 1, 0.0)));
  for (int i = 0; i <= m; ++i)
    for (int j = 0; j <= n; ++j) {
      if (i == 0 || j == 0) {
        f[i][j][0] = 1;
        continue;
      }
      for (int v = 0; v <= i * j; ++v) f[i][j][v] = f[i - 1][j][v] + (v >= i ? f[i][j - 1][v - i] : 0.0);
    }
  double total = 0;
  for (double c : f[m][n]) total += c;
  std::vector<double> p = f[m][n];
  for (double& c : p) c /= total;
  return p;
}

}  // namespace

double mann_whitney_p_less(const std::vector<double>& x, const std::vector<double>& y) { return mann_whitney_p_less({{x, y}}); }

double mann_whitney_p_less(const std::vector<Stratum>& strata) {
  double u = 0, mu = 0, var = 0;
  int k = 0;
  bool exact = true, any = false;
  for (const auto& [x, y] : strata) {
    const int m = static_cast<int>(x.size()), n = static_cast<int>(y.size());
    if (m == 0 || n == 0) continue;
    any = true;
    double us = 0;
    for (double a : x)
      for (double b : y) us += a < b ? 1.0 : a == b ? 0.5 : 0.0;
    u += us;
    k += static_cast<int>(std::floor(us));
    mu += m * static_cast<double>(n) / 2.0;
    var += m * static_cast<double>(n) * (m + n + 1) / 12.0;
    exact = exact && m <= kExactMax && n <= kExactMax;
  }
  if (!any) return 1.0;
  // The exact table grows as m*n*(m*n): beyond a few dozen trials per side (a large --confirm)
  // use the normal approximation of U (mean mn/2, variance mn(m+n+1)/12 per stratum, continuity
  // 0.5), which is accurate there, instead of gigabytes of table.
  if (!exact) return 0.5 * std::erfc((u - 0.5 - mu) / (std::sqrt(var) * std::sqrt(2.0)));
  std::vector<double> dist{1.0};
  for (const auto& [x, y] : strata) {
    if (x.empty() || y.empty()) continue;
    auto s = u_null(static_cast<int>(x.size()), static_cast<int>(y.size()));
    std::vector<double> next(dist.size() + s.size() - 1, 0.0);
    for (std::size_t i = 0; i < dist.size(); ++i)
      for (std::size_t j = 0; j < s.size(); ++j) next[i + j] += dist[i] * s[j];
    dist.swap(next);
  }
  double tail = 0;
  for (std::size_t v = static_cast<std::size_t>(k); v < dist.size(); ++v) tail += dist[v];
  return std::min(1.0, tail);
}

}  // namespace ncdx::model::tune
