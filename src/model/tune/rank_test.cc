#include "model/tune/rank_test.h"

#include <cmath>

namespace ncdx::model::tune {
namespace {
constexpr int kExactMax = 40;
}  // namespace

double mann_whitney_p_less(const std::vector<double>& x, const std::vector<double>& y) {
  const int m = static_cast<int>(x.size()), n = static_cast<int>(y.size());
  if (m == 0 || n == 0) return 1.0;
  double u = 0;
  for (double a : x)
    for (double b : y) u += a < b ? 1.0 : a == b ? 0.5 : 0.0;
  // The exact table grows as m*n*(m*n): beyond a few dozen trials per side (a large --confirm)
  // use the normal approximation of U (mean mn/2, variance mn(m+n+1)/12, continuity 0.5), which
  // is accurate there, instead of gigabytes of table.
  if (m > kExactMax || n > kExactMax) {
    const double mu = m * static_cast<double>(n) / 2.0;
    const double sd = std::sqrt(m * static_cast<double>(n) * (m + n + 1) / 12.0);
    return 0.5 * std::erfc((u - 0.5 - mu) / (sd * std::sqrt(2.0)));
  }
  const int k = static_cast<int>(std::floor(u));
  // f[i][j][u]: orderings of i x's and j y's with U = u. The largest element is an x (below no
  // y: f(i-1,j,u)) or a y (above all i x's: f(i,j-1,u-i)). m, n are trials, so this is tiny.
  const int umax = m * n;
  std::vector<std::vector<std::vector<double>>> f(
      m + 1, std::vector<std::vector<double>>(n + 1, std::vector<double>(umax + 1, 0.0)));
  for (int i = 0; i <= m; ++i)
    for (int j = 0; j <= n; ++j) {
      if (i == 0 || j == 0) {
        f[i][j][0] = 1;
        continue;
      }
      for (int v = 0; v <= i * j; ++v) f[i][j][v] = f[i - 1][j][v] + (v >= i ? f[i][j - 1][v - i] : 0.0);
    }
  double total = 0, tail = 0;
  for (int v = 0; v <= umax; ++v) {
    total += f[m][n][v];
    if (v >= k) tail += f[m][n][v];
  }
  return tail / total;
}

}  // namespace ncdx::model::tune
