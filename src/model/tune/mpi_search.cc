#include "model/tune/mpi_search.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "model/tune/rank_test.h"

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
  // `evidence` false: the trial only selects what to confirm, and is kept out of the decision.
  core::Status run(const OmpiConfig& c, const std::vector<std::size_t>& sizes, bool evidence = true) {
    if (sizes.empty()) return core::Status::ok();
    auto r = m_(c, sizes);
    if (!r) return r.status();
    ++launches;
    for (std::size_t s : sizes) {
      auto it = r->find(s);
      if (it == r->end()) return core::Status(core::Exit::failures, "trial returned no row for " + std::to_string(s) + " B");
      (evidence ? samples_ : screen_)[{c, s}].push_back(it->second);
      ++trials;
    }
    return core::Status::ok();
  }
  const std::vector<Sample>* get(const OmpiConfig& c, std::size_t s) const {
    auto it = samples_.find({c, s});
    return it == samples_.end() ? nullptr : &it->second;
  }
  // The first trial of c at s, selection-only or not (what the prediction uses).
  const Sample* first(const OmpiConfig& c, std::size_t s) const {
    for (const auto* m : {&screen_, &samples_})
      if (auto it = m->find({c, s}); it != m->end() && !it->second.empty()) return &it->second.front();
    return nullptr;
  }
  long trials = 0;
  int launches = 0;

 private:
  const MeasureFn& m_;
  std::map<Key, std::vector<Sample>> samples_, screen_;
};

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

// Twice the standard error of one trial's per-iteration median, 1.2533 sigma / sqrt(n) (the
// asymptotic efficiency of the median), taken as the median over trials so that one trial hit by
// the scheduler does not inflate it.
double within_trial_noise(const std::vector<Sample>& s) {
  std::vector<double> se;
  for (const auto& x : s)
    if (x.n > 0) se.push_back(1.2533 * x.stdev_us / std::sqrt(static_cast<double>(x.n)));
  return 2 * median(se);
}

struct Verdict {
  OmpiConfig best;
  double default_med = 0, best_med = 0, noise = 0, p = 1;
};

// The fastest median among `candidates` with at least `min_samples` trials, against the default.
Verdict compare(std::size_t bytes, const Book& book, const std::vector<OmpiConfig>& candidates, std::size_t min_samples) {
  Verdict v;
  const auto* d = book.get(OmpiConfig{}, bytes);
  if (!d) {  // not confirmed: the screening trial is reported, and nothing can win
    if (const auto* f = book.first(OmpiConfig{}, bytes)) v.default_med = v.best_med = f->p50_us;
    return v;
  }
  v.default_med = v.best_med = median(medians(*d));
  v.noise = within_trial_noise(*d);
  const std::vector<Sample>* bs = nullptr;
  for (const auto& c : candidates) {
    if (c.alg == 0) continue;
    const auto* s = book.get(c, bytes);
    if (!s || s->size() < min_samples) continue;  // a single screening sample never decides
    double m = median(medians(*s));
    if (m < v.best_med) {
      v.best = c;
      v.best_med = m;
      bs = s;
    }
  }
  if (bs) {
    v.noise = std::max(v.noise, within_trial_noise(*bs));
    v.p = mann_whitney_p_less(medians(*bs), medians(*d));
  }
  return v;
}

// The rule (docs/TUNE.md "Decision rule"): a non-default configuration replaces the default only
// if (a) its trials are faster by ranks, one-sided exact Mann-Whitney p <= alpha; (b) its median
// beats the default's by at least min_gain; (c) and by more than twice the within-trial standard
// error of the median. Else the default stays.
BucketChoice decide(std::size_t bytes, const Verdict& v, double min_gain, double alpha) {
  BucketChoice b;
  b.bytes = bytes;
  b.best = v.best;
  b.default_us = v.default_med;
  b.best_us = v.best_med;
  b.noise_us = v.noise;
  double gain = v.default_med - v.best_med;
  b.beats_noise = v.best.alg != 0 && v.p <= alpha && gain >= min_gain * v.default_med && gain > v.noise;
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
  // Four trials a side: with three, the rank test passes whenever every default trial is slow
  // (p = 1/20), which a 10 % heavy tail does to 1 bucket in 1000; with four it takes 1 in 10^4,
  // and one inverted pair is still tolerated (p = 2/70).
  const std::size_t need = static_cast<std::size_t>(std::max(4, o.confirm_repeats + 1));
  const std::size_t most = std::max<std::size_t>(need, static_cast<std::size_t>(o.max_repeats));
  // 1. screen. The default at every size: it switches algorithm between anchors (Open MPI's
  // decision is piecewise by size), so it cannot be interpolated, and it is the bar everywhere.
  // That trial selects the buckets to confirm, so it is no evidence for a change there: one slow
  // default trial (a 10 % heavy tail hits 1 in 10) is what selects a bucket, and counting it
  // would leave three more slow ones, not four, between the default and a loss.
  if (auto s = book.run(OmpiConfig{}, sizes, false); !s) return s;
  std::vector<OmpiConfig> screened;
  for (const auto& a : algs) {
    screened.push_back({a.id, 0});
    // One segment size besides the default one, the largest: a segment size can change the
    // algorithm's bandwidth, so predicting it from the default segment size alone misses the
    // crossover where it wins (issue #15: the 64 KiB ring at 2 MiB).
    if (a.segmented && !o.segsizes.empty()) screened.push_back({a.id, *std::max_element(o.segsizes.begin(), o.segsizes.end())});
  }
  for (const auto& c : screened)
    if (auto s = book.run(c, anchors); !s) return s;
  // 2. predict each screened configuration at every bucket: linear in bytes between the
  // neighbouring anchors, i.e. the alpha-beta (Hockney) line through them; log-log interpolation
  // overestimates such a line mid-span (predicted 497 us against 430 us at 2 MiB on MpiSearch.*).
  auto time_at = [&](const OmpiConfig& c, std::size_t bytes) {
    const auto* v = book.first(c, bytes);
    return v ? v->p50_us : 1e300;
  };
  std::map<std::size_t, OmpiConfig> finalist;
  std::map<std::pair<std::size_t, OmpiConfig>, double> predicted;
  auto pred = [&](std::size_t bytes, const OmpiConfig& c) {
    auto it = predicted.find(std::make_pair(bytes, c));
    return it == predicted.end() ? 1e300 : it->second;
  };
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto hi = std::lower_bound(anchor_idx.begin(), anchor_idx.end(), i);
    std::size_t a1 = *hi, a0 = (*hi == i || hi == anchor_idx.begin()) ? *hi : *(hi - 1);
    double best = 1e300;
    OmpiConfig pick;
    for (const auto& c : screened) {
      double t0 = time_at(c, sizes[a0]), t1 = time_at(c, sizes[a1]), t = t1;
      if (a0 != a1 && t0 < 1e299 && t1 < 1e299) {
        double w = static_cast<double>(sizes[i] - sizes[a0]) / static_cast<double>(sizes[a1] - sizes[a0]);
        t = (1 - w) * t0 + w * t1;
      }
      predicted[std::make_pair(sizes[i], c)] = t;
      if (t < best) {
        best = t;
        pick = c;
      }
    }
    // Worth confirming only where the finalist is predicted to gain more than worth_confirming on
    // the measured default: a smaller gain, even if real, keeps the default within the target.
    double bar = time_at(OmpiConfig{}, sizes[i]);
    if (best < (1 - o.worth_confirming) * bar) finalist[sizes[i]] = pick;
  }
  // Bring each (configuration, bucket) to `n` trials, one launch per configuration.
  auto top_up = [&](const std::map<OmpiConfig, std::vector<std::size_t>>& want, std::size_t n) -> core::Status {
    for (std::size_t r = 0; r < n; ++r)
      for (const auto& [c, bytes] : want) {
        std::vector<std::size_t> short_of;
        for (std::size_t b : bytes) {
          const auto* v = book.get(c, b);
          if (!v || v->size() < n) short_of.push_back(b);
        }
        if (auto s = book.run(c, short_of); !s) return s;
      }
    return core::Status::ok();
  };
  // 3. confirm the default and each finalist
  std::map<OmpiConfig, std::vector<std::size_t>> want;
  for (const auto& [bytes, c] : finalist) {
    want[OmpiConfig{}].push_back(bytes);
    want[c].push_back(bytes);
  }
  if (auto s = top_up(want, need); !s) return s;
  // 4. refine the segment sizes not screened, where a configuration of the algorithm is the
  // finalist or predicted within 15 % of it: a segment size can close that gap.
  auto cands = all_configs(algs, o);
  want.clear();
  for (const auto& a : algs) {
    if (!a.segmented) continue;
    std::vector<std::size_t> where;
    for (const auto& [bytes, f] : finalist)
      for (const auto& c : screened)
        if (c.alg == a.id && pred(bytes, c) <= 1.15 * pred(bytes, f)) {
          where.push_back(bytes);
          break;
        }
    for (int seg : o.segsizes) {
      OmpiConfig c{a.id, seg};
      if (where.empty() || std::find(screened.begin(), screened.end(), c) != screened.end()) continue;
      if (auto s = book.run(c, where); !s) return s;
      for (std::size_t b : where) {
        const auto* fin = book.get(finalist[b], b);
        if (book.get(c, b)->front().p50_us < median(medians(*fin))) want[c].push_back(b);
      }
    }
  }
  if (auto s = top_up(want, need); !s) return s;
  // 5. where the fastest median gains at least min_gain but the ranks are not yet conclusive,
  // one more trial of it and of the default per round, up to max_repeats a side.
  for (std::size_t n = need + 1; n <= most; ++n) {
    want.clear();
    for (const auto& [bytes, f] : finalist) {
      auto v = compare(bytes, book, cands, need);
      if (v.best.alg != 0 && v.p > o.alpha && v.default_med - v.best_med >= o.min_gain * v.default_med) {
        want[OmpiConfig{}].push_back(bytes);
        want[v.best].push_back(bytes);
      }
    }
    if (want.empty()) break;
    if (auto s = top_up(want, n); !s) return s;
  }
  SearchResult res;
  for (std::size_t b : sizes) res.buckets.push_back(decide(b, compare(b, book, cands, need), o.min_gain, o.alpha));
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
    auto d = decide(b, compare(b, book, cfgs, 1), 0.0, 1.0);
    // Exhaustive: the fastest median, noise or not (it is the reference, not a decision).
    d.chosen = d.best;
    res.buckets.push_back(d);
  }
  res.trials = book.trials;
  res.launches = book.launches;
  return res;
}

}  // namespace ncdx::model::tune
