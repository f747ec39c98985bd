#include "model/tune/mpi_search.h"

#include <algorithm>

#include "model/tune/ompi_alphabeta.h"
#include "model/tune/ompi_fixed_decision.h"
#include "model/tune/rank_test.h"
#include "model/tune/trial_book.h"

// The configurations both searches try, Open MPI's space, and the exhaustive search; the guided one
// is guided_search.cc.
namespace ncdx::model::tune {

namespace {

using trials::Book;
using trials::median;
using trials::medians;
using trials::within_trial_noise;

struct Verdict {
  Config best;
  double default_med = 0, best_med = 0, noise = 0, p = 1;
};

// The fastest median among `candidates` with at least `min_samples` trials, against the default.
Verdict compare(std::size_t bytes, const Book& book, const std::vector<Config>& candidates, std::size_t min_samples) {
  Verdict v;
  const auto* d = book.get(Config{}, bytes);
  if (!d) {  // not confirmed: the screening trial is reported, and nothing can win
    if (const auto* f = book.first(Config{}, bytes)) v.default_med = v.best_med = f->p50_us;
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
  b.chosen = b.beats_noise ? b.best : Config{};
  return b;
}

}  // namespace

SearchSpace ompi_space(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o) {
  SearchSpace sp;
  for (const auto& a : algs) sp.cands.push_back({a.id, a.name, a.segmented});
  sp.knobs = o.segsizes;
  if (o.nranks < 1) return sp;
  sp.runs_as = [algs, np = o.nranks, elt = o.elt_bytes, fixed = o.default_is_fixed_decision](const Config& c, std::size_t bytes) {
    for (const auto& a : algs) {
      if (a.id != c.alg) continue;
      const std::string runs = ompi_runs_as(a.coll, a.name, np, bytes, c.knob, elt);
      const int seg = runs == a.name ? ompi_effective_segsize(a.coll, a.name, bytes, c.knob, elt) : 0;
      // The default runs the fixed decision's algorithm at segment size 0, as Open MPI runs it.
      if (const auto d = fixed && seg == 0 ? ompi_fixed_decision(a.coll, np, bytes) : std::nullopt)
        for (const auto& b : algs)
          if (b.id == *d && ompi_runs_as(b.coll, b.name, np, bytes, 0, elt) == runs) return Config{};
      if (runs == a.name) return Config{c.alg, seg};
      for (const auto& b : algs)
        if (b.name == runs) return Config{b.id, 0};
    }
    return c;
  };
  return sp;
}

std::vector<Config> all_configs(const SearchSpace& space, const std::vector<std::size_t>& sizes) {
  auto canon = trials::canonical(space);
  std::vector<Config> out{Config{}};
  auto add = [&](const Config& c) {
    bool distinct = sizes.empty();
    for (std::size_t s : sizes) distinct = distinct || canon(c, s) == c;
    if (distinct) out.push_back(c);
  };
  for (const auto& a : space.cands) {
    add({a.id, 0});
    if (a.has_knob)
      for (int k : space.knobs) add({a.id, k});
  }
  return out;
}

core::Result<SearchResult> exhaustive_search(const SearchSpace& space, const std::vector<std::size_t>& sizes_in,
                                             const MeasureFn& measure, const SearchOptions& o) {
  const std::vector<std::size_t> sizes = trials::sorted_unique(sizes_in);
  Book book(measure, trials::canonical(space));
  auto cfgs = all_configs(space, sizes);
  for (int r = 0; r < std::max(1, o.exhaustive_repeats); ++r)
    for (const auto& c : cfgs)
      if (auto s = book.run(c, sizes); !s) return s;
  SearchResult res;
  for (std::size_t b : sizes) {
    auto d = decide(b, compare(b, book, cfgs, 1), 0.0, 1.0);
    // Exhaustive: the fastest median, noise or not (it is the reference, not a decision).
    d.chosen = d.best = book.canon(d.best, b);
    res.buckets.push_back(d);
  }
  res.trials = book.trials;
  res.launches = book.launches;
  res.exhaustive_trials = book.trials;
  res.configurations = static_cast<int>(cfgs.size());
  return res;
}

std::vector<OmpiConfig> all_configs(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o,
                                    const std::vector<std::size_t>& sizes) {
  return all_configs(ompi_space(algs, o), sizes);
}
core::Result<SearchResult> guided_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes,
                                         const MeasureFn& measure, const SearchOptions& o) {
  return guided_search(ompi_space(algs, o), sizes, measure, o);
}
core::Result<SearchResult> exhaustive_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes,
                                             const MeasureFn& measure, const SearchOptions& o) {
  return exhaustive_search(ompi_space(algs, o), sizes, measure, o);
}

}  // namespace ncdx::model::tune
