#include "model/tune/trial_book.h"

#include <algorithm>
#include <cmath>

#include "model/tune/ompi_alphabeta.h"

namespace ncdx::model::tune::trials {

Canon canonical(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o) {
  return [algs, np = o.nranks, elt = o.elt_bytes](const OmpiConfig& c, std::size_t bytes) {
    if (c.alg == 0 || np < 1) return c;
    for (const auto& a : algs) {
      if (a.id != c.alg) continue;
      std::string runs = ompi_runs_as(a.coll, a.name, np, bytes, c.segsize, elt);
      if (runs == a.name) return c;
      for (const auto& b : algs)
        if (b.name == runs) return OmpiConfig{b.id, 0};
    }
    return c;
  };
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
