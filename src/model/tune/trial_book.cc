#include "model/tune/trial_book.h"

#include <algorithm>
#include <cmath>


namespace ncdx::model::tune::trials {

Canon canonical(const SearchSpace& space) {
  if (!space.runs_as) return [](const Config& c, std::size_t) { return c; };
  return [f = space.runs_as](const Config& c, std::size_t bytes) { return c.alg == 0 ? c : f(c, bytes); };
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<double> medians(const std::vector<Sample>& s) {
  std::vector<double> v;
  for (const auto& x : s) v.push_back(x.p50_us);
  return v;
}

double within_trial_noise(const std::vector<Sample>& s) {
  std::vector<double> se;
  for (const auto& x : s)
    if (x.n > 0) se.push_back(1.2533 * x.stdev_us / std::sqrt(static_cast<double>(x.n)));
  return 2 * median(se);
}

std::vector<std::size_t> sorted_unique(std::vector<std::size_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace ncdx::model::tune::trials
