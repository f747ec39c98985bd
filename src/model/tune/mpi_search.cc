#include "model/tune/mpi_search.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ncdx::model::tune {

namespace {

struct Key {
  OmpiConfig cfg;
  std::size_t bytes;
  bool operator<(const Key& o) const {
    if (cfg.alg != o.cfg.alg) return cfg.alg < o.cfg.alg;
    if (cfg.segsize != o.cfg.segsize) return cfg.segsize < o.cfg.segsize;
    return bytes < o.bytes;
  }
};

class Book {
 public:
  Book(const MeasureFn& m) : m_(m) {}
  core::Status run(const OmpiConfig& c, const std::vector<std::size_t>& sizes) {
    if (sizes.empty()) return core::Status::ok();
    auto r = m_(c, sizes);
    if (!r) return r.status();
    ++launches;
    for (std::size_t s : sizes) {
      auto it = r->find(s);
      if (it == r->end()) return core::Status(core::Exit::failures, "trial returned no row for " + std::to_string(s) + " B");
      samples_[{c, s}].push_back(it->second);
      ++trials;
    }
    return core::Status::ok();
  }
  const std::vector<Sample>* get(const OmpiConfig& c, std::size_t s) const {
    auto it = samples_.find({c, s});
    return it == samples_.end() ? nullptr : &it->second;
  }
  long trials = 0;
  int launches = 0;

 private:
  const MeasureFn& m_;
  std::map<Key, std::vector<Sample>> samples_;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Summary {
  double med = 0, noise = 0;
  int n = 0;
};
Summary summarize(const std::vector<Sample>& s) {
  Summary r;
  std::vector<double> v;
  double se = 0;
  for (const auto& x : s) {
    v.push_back(x.p50_us);
    // Standard error of a median of n samples: 1.2533 sigma / sqrt(n).
    if (x.n > 0) se = std::max(se, 1.2533 * x.stdev_us / std::sqrt(static_cast<double>(x.n)));
  }
  r.n = static_cast<int>(v.size());
  r.med = median(v);
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  r.noise = std::max(v.size() > 1 ? (*hi - *lo) / 2 : 0.0, 2 * se);
  return r;
}

BucketChoice decide(std::size_t bytes, const Book& book, const std::vector<OmpiConfig>& candidates, double min_gain,
                    std::size_t min_samples) {
  BucketChoice b;
  b.bytes = bytes;
  const auto* d = book.get(OmpiConfig{}, bytes);
  Summary ds = d ? summarize(*d) : Summary{};
  b.default_us = b.best_us = ds.med;
  Summary best = ds;
  for (const auto& c : candidates) {
    if (c.alg == 0) continue;
    const auto* s = book.get(c, bytes);
    if (!s || s->size() < min_samples) continue;  // a single screening sample never decides
    auto cs = summarize(*s);
    if (cs.med < best.med) {
      best = cs;
      b.best = c;
      b.best_us = cs.med;
    }
  }
  b.noise_us = std::max(ds.noise, best.noise);
  b.beats_noise = b.best.alg != 0 && ds.med - best.med > b.noise_us && ds.med - best.med >= min_gain * ds.med;
  b.chosen = b.beats_noise ? b.best : OmpiConfig{};
  return b;
}

}  // namespace

std::vector<OmpiConfig> all_configs(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o) {
  std::vector<OmpiConfig> out{OmpiConfig{}};
  for (const auto& a : algs) {
    out.push_back({a.id, 0});
    if (a.segmented)
      for (int s : o.segsizes) out.push_back({a.id, s});
  }
  return out;
}

core::Result<SearchResult> guided_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes_in,
                                         const MeasureFn& measure, const SearchOptions& o) {
  std::vector<std::size_t> sizes = sizes_in;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  if (sizes.empty()) return core::Status::usage("no sizes to tune");
  Book book(measure);
  const int stride = std::max(1, o.anchor_stride);
  std::vector<std::size_t> anchors;
  std::vector<std::size_t> anchor_idx;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    if (i % static_cast<std::size_t>(stride) == 0 || i + 1 == sizes.size()) {
      anchors.push_back(sizes[i]);
      anchor_idx.push_back(i);
    }
  // 1. screen
  if (auto s = book.run(OmpiConfig{}, anchors); !s) return s;
  for (const auto& a : algs)
    if (auto s = book.run({a.id, 0}, anchors); !s) return s.with_context(a.name);
  // 2. predict a finalist per bucket
  auto time_at = [&](const OmpiConfig& c, std::size_t bytes) {
    const auto* v = book.get(c, bytes);
    return v && !v->empty() ? v->front().p50_us : 1e300;
  };
  std::map<std::size_t, OmpiConfig> finalist;
  std::map<std::pair<std::size_t, int>, double> predicted;  // (bytes, alg) -> predicted us
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto hi = std::lower_bound(anchor_idx.begin(), anchor_idx.end(), i);
    std::size_t a1 = *hi, a0 = (*hi == i || hi == anchor_idx.begin()) ? *hi : *(hi - 1);
    double best = 1e300;
    OmpiConfig pick;
    for (const auto& a : algs) {
      OmpiConfig c{a.id, 0};
      double t0 = time_at(c, sizes[a0]), t1 = time_at(c, sizes[a1]), t = t1;
      if (a0 != a1 && t0 < 1e299 && t1 < 1e299 && t0 > 0 && t1 > 0) {
        double x0 = std::log(std::max<double>(1.0, static_cast<double>(sizes[a0]))),
               x1 = std::log(std::max<double>(1.0, static_cast<double>(sizes[a1]))),
               x = std::log(std::max<double>(1.0, static_cast<double>(sizes[i])));
        double w = x1 > x0 ? (x - x0) / (x1 - x0) : 1.0;
        t = std::exp((1 - w) * std::log(t0) + w * std::log(t1));
      }
      predicted[{sizes[i], a.id}] = t;
      if (t < best) {
        best = t;
        pick = c;
      }
    }
    finalist[sizes[i]] = pick;
    predicted[{sizes[i], -1}] = best;
  }
  // 3. confirm
  std::map<std::pair<int, int>, std::vector<std::size_t>> by_cfg;
  for (const auto& [bytes, c] : finalist)
    if (c.alg != 0) by_cfg[{c.alg, c.segsize}].push_back(bytes);
  for (int r = 0; r < o.confirm_repeats; ++r) {
    if (auto s = book.run(OmpiConfig{}, sizes); !s) return s;
    for (const auto& [k, sz] : by_cfg) {
      std::vector<std::size_t> need;
      for (std::size_t b : sz) need.push_back(b);
      if (auto s = book.run({k.first, k.second}, need); !s) return s;
    }
  }
  // 4. refine segment sizes of segmented finalists
  std::vector<OmpiConfig> candidates;
  for (const auto& a : algs) candidates.push_back({a.id, 0});
  for (const auto& a : algs) {
    if (!a.segmented) continue;
    // Where it is the finalist, or predicted within 15 % of it: a segment size can close that gap.
    std::vector<std::size_t> where;
    for (const auto& [bytes, c] : finalist)
      if (c.alg == a.id || predicted[{bytes, a.id}] <= 1.15 * predicted[{bytes, -1}]) where.push_back(bytes);
    if (where.empty()) continue;
    for (int seg : o.segsizes) {
      OmpiConfig c{a.id, seg};
      candidates.push_back(c);
      if (auto s = book.run(c, where); !s) return s;
      std::vector<std::size_t> promising;
      for (std::size_t b : where) {
        const auto* mine = book.get(c, b);
        const auto* fin = book.get(finalist[b], b);
        double bar = fin && !fin->empty() ? summarize(*fin).med : predicted[{b, -1}];
        if (mine && mine->front().p50_us < bar) promising.push_back(b);
      }
      for (int r = 1; r < o.confirm_repeats; ++r)
        if (auto s = book.run(c, promising); !s) return s;
    }
  }
  SearchResult res;
  for (std::size_t b : sizes) res.buckets.push_back(decide(b, book, candidates, o.min_gain, 2));
  res.trials = book.trials;
  res.launches = book.launches;
  return res;
}

core::Result<SearchResult> exhaustive_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes_in,
                                             const MeasureFn& measure, const SearchOptions& o) {
  std::vector<std::size_t> sizes = sizes_in;
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  Book book(measure);
  auto cfgs = all_configs(algs, o);
  for (int r = 0; r < std::max(1, o.exhaustive_repeats); ++r)
    for (const auto& c : cfgs)
      if (auto s = book.run(c, sizes); !s) return s;
  SearchResult res;
  for (std::size_t b : sizes) {
    auto d = decide(b, book, cfgs, 0.0, 1);
    // Exhaustive: the fastest median, noise or not (it is the reference, not a decision).
    d.chosen = d.best;
    res.buckets.push_back(d);
  }
  res.trials = book.trials;
  res.launches = book.launches;
  return res;
}

}  // namespace ncdx::model::tune
