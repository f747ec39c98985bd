#pragma once
// Change-point detection for fail-slow: one upward level shift in a series of per-step (or
// per-collective) times, found where the two-sample t statistic of the means is largest, then
// confirmed on medians (robust to spikes): the later level must be ≥ min_factor × the earlier one
// and clear the noise (≥ 6 robust standard errors from the residuals' MAD), and ≥ 90 % of
// (before, after) pairs must be ordered. A later return to the old level makes it transient.
#include <cstddef>
#include <optional>
#include <vector>

namespace ncdx::analyze::timeline {

struct ChangePoint {
  std::size_t at = 0;                   // first index of the slow segment
  std::optional<std::size_t> back_at;   // first index back to normal (transient)
  double before = 0, after = 0;         // medians
  double factor = 1;
};

std::optional<ChangePoint> find_slowdown(const std::vector<double>& x, double min_factor,
                                         std::size_t min_segment = 4);
double median(std::vector<double> v);

}  // namespace ncdx::analyze::timeline
