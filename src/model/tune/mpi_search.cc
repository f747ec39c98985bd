#include "model/tune/mpi_search.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

#include "model/tune/ompi_alphabeta.h"

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

// The configuration Open MPI actually runs when `c` is forced at `bytes` (ompi_runs_as): a forced
// segmented ring below p segments is the ring, so its trials are the ring's.
using Canon = std::function<OmpiConfig(const OmpiConfig&, std::size_t)>;

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

class Book {
 public:
  Book(const MeasureFn& m, Canon canon) : m_(m), canon_(std::move(canon)) {}
  // `evidence` false: the trial only selects what to confirm, and is kept out of the decision.
  core::Status run(const OmpiConfig& c, const std::vector<std::size_t>& sizes, bool evidence = true) {
    if (sizes.empty()) return core::Status::ok();
    if (cap >= 0 && trials + static_cast<long>(sizes.size()) > cap) {
      ++skipped;
      return core::Status::ok();
    }
    auto r = m_(c, sizes);
    if (!r) return r.status();
    ++launches;
    for (std::size_t s : sizes) {
      auto it = r->find(s);
      if (it == r->end()) return core::Status(core::Exit::failures, "trial returned no row for " + std::to_string(s) + " B");
      (evidence ? samples_ : screen_)[key(c, s)].push_back(it->second);
      ++trials;
    }
    return core::Status::ok();
  }
  const std::vector<Sample>* get(const OmpiConfig& c, std::size_t s) const {
    auto it = samples_.find(key(c, s));
    return it == samples_.end() ? nullptr : &it->second;
  }
  std::size_t count(const OmpiConfig& c, std::size_t s) const {
    const auto* v = get(c, s);
    return v ? v->size() : 0;
  }
  // The first trial of c at s, selection-only or not (what the prediction uses).
  const Sample* first(const OmpiConfig& c, std::size_t s) const {
    for (const auto* m : {&screen_, &samples_})
      if (auto it = m->find(key(c, s)); it != m->end() && !it->second.empty()) return &it->second.front();
    return nullptr;
  }
  // A selection-only trial becomes evidence: the selection did not depend on it.
  void promote(const OmpiConfig& c, std::size_t s) {
    auto it = screen_.find(key(c, s));
    if (it == screen_.end()) return;
    auto& to = samples_[key(c, s)];
    to.insert(to.end(), it->second.begin(), it->second.end());
    screen_.erase(it);
  }
  OmpiConfig canon(const OmpiConfig& c, std::size_t s) const { return canon_(c, s); }
  long trials = 0;
  int launches = 0;
  long cap = -1;  // trials at most (-1: none)
  int skipped = 0;

 private:
  Key key(const OmpiConfig& c, std::size_t s) const { return {canon_(c, s), s}; }
  const MeasureFn& m_;
  Canon canon_;
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

std::vector<OmpiConfig> all_configs(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o,
                                    const std::vector<std::size_t>& sizes) {
  auto canon = canonical(algs, o);
  std::vector<OmpiConfig> out{OmpiConfig{}};
  auto add = [&](const OmpiConfig& c) {
    bool distinct = sizes.empty();
    for (std::size_t s : sizes) distinct = distinct || canon(c, s) == c;
    if (distinct) out.push_back(c);
  };
  for (const auto& a : algs) {
    add({a.id, 0});
    if (a.segmented)
      for (int s : o.segsizes) add({a.id, s});
  }
  return out;
}

namespace {

std::vector<std::size_t> sorted_unique(std::vector<std::size_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Anchor indices: the first and the last size and evenly between, one about every `stride`
// sizes: 4 sizes -> {0, 3}, 6 -> {0, 3, 5}, 11 -> {0, 3, 7, 10}.
std::vector<std::size_t> anchor_indices(std::size_t n, int stride) {
  if (n <= 1) return {0};
  const std::size_t k = (n - 1 + static_cast<std::size_t>(stride) - 1) / static_cast<std::size_t>(stride) + 1;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < k; ++i) out.push_back((i * (n - 1) + (k - 1) / 2) / (k - 1));
  return sorted_unique(out);
}

// A run of neighbouring buckets that are worth confirming, confirmed and tested together (one
// stratum per bucket, each with its own finalist): the pooled test needs fewer trials per bucket
// than one test per bucket, and a bucket whose finalist loses drags the whole run's ranks down.
struct Group {
  std::vector<std::size_t> buckets;
  std::map<std::size_t, OmpiConfig> cfg;
  bool passed = false;
  bool stale = false;  // split off without its fresh trials (the budget): it cannot pass
  bool clear = true;   // predicted to gain clearly: confirmed first, while the budget lasts
};

// Pairs (x_i < y_j) in favour of x, of x.size() * y.size().
double favour(const std::vector<double>& x, const std::vector<double>& y) {
  double u = 0;
  for (double a : x)
    for (double b : y) u += a < b ? 1.0 : a == b ? 0.5 : 0.0;
  return u;
}

// What a bucket of a run that passed needs of its own, so that a bucket at the edge of a run (a
// finalist a few % slower there) is not carried by its neighbours: its own rank test at `alpha`
// (3 against 3 at least: all 9 pairs, which a 2 % slower finalist passes only when all three
// default trials are hit by the scheduler); or a clear separation — every finalist trial faster
// than every one of >= 2 default trials by 10 % and by twice the run's trial-to-trial noise
// (`sigma`, relative): with 3 % noise a finalist 2 % slower shows that only when both default
// trials are hit by the scheduler. On the namespace-like surface at 10 % noise (400 draws) the
// noise term took the buckets > 2 % slower than the default from 4 to 2 of 1600 (main's search:
// 7, its per-bucket rank test at that noise).
struct OwnRule {
  double alpha, clear = 0.10;
  bool operator()(const std::vector<double>& x, const std::vector<double>& y, double sigma) const {
    if (x.empty() || y.empty()) return false;
    if (mann_whitney_p_less(x, y) <= alpha) return true;
    const double sep = std::max(clear, 2 * sigma);
    return y.size() >= 2 && *std::max_element(x.begin(), x.end()) < (1 - sep) * *std::min_element(y.begin(), y.end());
  }
};

// The trial-to-trial noise of a run, relative, from its buckets' default trials: the median over
// pairs of one bucket of |a - b| / mean is 0.954 sigma for Gaussian noise (the median of a
// half-normal of scale sqrt(2) sigma), and a pair hit by the scheduler moves the median by one.
double trial_noise(const std::vector<std::vector<double>>& defaults) {
  std::vector<double> d;
  for (const auto& y : defaults)
    for (std::size_t i = 0; i < y.size(); ++i)
      for (std::size_t j = i + 1; j < y.size(); ++j) d.push_back(std::abs(y[i] - y[j]) / (0.5 * (y[i] + y[j])));
  return d.empty() ? 0.0 : median(d) / 0.954;
}

}  // namespace

core::Result<SearchResult> guided_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes_in,
                                         const MeasureFn& measure, const SearchOptions& o) {
  const std::vector<std::size_t> sizes = sorted_unique(sizes_in);
  if (sizes.empty()) return core::Status::usage("no sizes to tune");
  Book book(measure, canonical(algs, o));
  const auto anchor_idx = anchor_indices(sizes.size(), std::max(1, o.anchor_stride));
  std::vector<std::size_t> anchors;
  for (std::size_t i : anchor_idx) anchors.push_back(sizes[i]);
  auto is_anchor = [&](std::size_t i) { return std::binary_search(anchor_idx.begin(), anchor_idx.end(), i); };
  // Four trials a side for a lone bucket: with three, the rank test passes whenever every default
  // trial is slow (p = 1/20), which a 10 % heavy tail does to 1 bucket in 1000; with four it takes
  // 1 in 10^4, and one inverted pair is still tolerated (p = 2/70).
  const std::size_t need = static_cast<std::size_t>(std::max(4, o.confirm_repeats + 1));
  const std::size_t most = std::max<std::size_t>(need, static_cast<std::size_t>(o.max_repeats));
  const OwnRule own_evidence{o.alpha};
  const auto cands = all_configs(algs, o, sizes);
  // 1. screen. The default at every size: it switches algorithm between anchors (Open MPI's
  // decision is piecewise by size), so it cannot be interpolated, and it is the bar everywhere.
  // That trial selects the buckets to confirm, so it is no evidence for a change there: one slow
  // default trial (a 10 % heavy tail hits 1 in 10) is what selects a bucket, and counting it
  // would leave three more slow ones, not four, between the default and a loss.
  if (auto s = book.run(OmpiConfig{}, sizes, false); !s) return s;
  std::vector<OmpiConfig> screened;
  for (const auto& c : cands) {
    if (c.alg == 0) continue;
    // One segment size besides the default one, the largest: a segment size can change the
    // algorithm's bandwidth, so predicting it from the default segment size alone misses the
    // crossover where it wins (issue #15: the 64 KiB ring at 2 MiB).
    bool seg_max = !o.segsizes.empty() && c.segsize == *std::max_element(o.segsizes.begin(), o.segsizes.end());
    if (c.segsize == 0 || seg_max) screened.push_back(c);
  }
  // Each distinct configuration once per anchor: where a screened configuration runs as another
  // screened one (the 64 KiB segmented ring below 4 x 64 KiB at 4 ranks is the ring), that one's
  // trial stands for both.
  for (const auto& c : screened) {
    std::vector<std::size_t> at;
    for (std::size_t a : anchors) {
      OmpiConfig k = book.canon(c, a);
      bool other = k != c && std::find(screened.begin(), screened.end(), k) != screened.end() && book.canon(k, a) == k;
      if (!other) at.push_back(a);
    }
    if (auto s = book.run(c, at); !s) return s;
  }
  const long exhaustive = static_cast<long>(cands.size() * sizes.size()) * std::max(1, o.exhaustive_repeats);
  const long budget = o.max_share > 0 ? static_cast<long>(std::floor(o.max_share * static_cast<double>(exhaustive) + 1e-9)) : 0;
  if (o.max_share > 0) book.cap = std::max(budget, book.trials);
  // 2. predict each screened configuration at every bucket: linear in bytes between the
  // neighbouring anchors, i.e. the alpha-beta (Hockney) line through them; log-log interpolation
  // overestimates such a line mid-span (predicted 497 us against 430 us at 2 MiB on MpiSearch.*).
  auto time_at = [&](const OmpiConfig& c, std::size_t bytes) {
    const auto* v = book.first(c, bytes);
    return v ? v->p50_us : 1e300;
  };
  auto interpolate = [&](const OmpiConfig& c, std::size_t i) {
    auto hi = std::lower_bound(anchor_idx.begin(), anchor_idx.end(), i);
    std::size_t a1 = *hi, a0 = (*hi == i || hi == anchor_idx.begin()) ? *hi : *(hi - 1);
    double t0 = time_at(c, sizes[a0]), t1 = time_at(c, sizes[a1]);
    if (a0 == a1 || t0 >= 1e299 || t1 >= 1e299) return t1;
    double w = static_cast<double>(sizes[i] - sizes[a0]) / static_cast<double>(sizes[a1] - sizes[a0]);
    return (1 - w) * t0 + w * t1;
  };
  std::map<std::size_t, OmpiConfig> finalist;
  std::map<std::size_t, double> predicted_gain;
  std::map<std::pair<std::size_t, OmpiConfig>, double> predicted;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    double best = 1e300;
    OmpiConfig pick;
    for (const auto& c : screened) {
      double t = interpolate(c, i);
      predicted[{sizes[i], c}] = t;
      if (t < best) {
        best = t;
        pick = c;
      }
    }
    // Worth confirming only where the finalist is predicted to gain more than worth_confirming on
    // the default: a smaller gain, even if real, keeps the default within the target. The bar is
    // the bucket's own default trial (Open MPI's decision switches algorithm between anchors, so
    // the default cannot be interpolated), or between anchors also the default's line through
    // them: a bucket selected that way did not need its own default trial to be selected, so that
    // trial is evidence there; else it selected the bucket and is never evidence for a change.
    const double own = time_at(OmpiConfig{}, sizes[i]), cut = 1 - o.worth_confirming;
    const bool by_line = !is_anchor(i) && best < cut * interpolate(OmpiConfig{}, i);
    if (by_line) book.promote(OmpiConfig{}, sizes[i]);
    if (by_line || best < cut * own) finalist[sizes[i]] = pick;
    // Clear or near tie, on the own trial only: the line misses a switch between the anchors
    // (Rabenseifner's eager/rendezvous step at 64 KiB made a tie there look like a 10 % gain).
    if (own < 1e299) predicted_gain[sizes[i]] = 1 - best / own;
  }
  auto pred = [&](std::size_t bytes, const OmpiConfig& c) {
    auto it = predicted.find({bytes, c});
    return it == predicted.end() ? 1e300 : it->second;
  };
  // 3. groups: runs of neighbouring buckets worth confirming.
  std::vector<Group> groups;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto it = finalist.find(sizes[i]);
    if (it == finalist.end()) continue;
    // Only buckets predicted to gain clearly (10 %) share a run: a near tie is its own lone
    // bucket, confirmed after them, so that its ranks do not sink a run of clear gains.
    const bool clear = predicted_gain[sizes[i]] >= 0.10;
    const bool joins = clear && !groups.empty() && groups.back().buckets.back() == (i > 0 ? sizes[i - 1] : 0) &&
                       predicted_gain[groups.back().buckets.back()] >= 0.10;
    if (!joins) groups.push_back({});
    groups.back().clear = clear;
    groups.back().buckets.push_back(sizes[i]);
    groups.back().cfg[sizes[i]] = it->second;
  }
  // Bring each (configuration, bucket) to its count, one launch per configuration and round.
  auto top_up = [&](const std::map<OmpiConfig, std::map<std::size_t, std::size_t>>& want) -> core::Status {
    std::size_t rounds = 0;
    for (const auto& [c, at] : want)
      for (const auto& [b, n] : at) rounds = std::max(rounds, n);
    for (std::size_t r = 1; r <= rounds; ++r)
      for (const auto& [c, at] : want) {
        std::vector<std::size_t> short_of;
        for (const auto& [b, n] : at)
          if (n >= r && book.count(c, b) < r) short_of.push_back(b);
        if (auto s = book.run(c, short_of); !s) return s;
      }
    return core::Status::ok();
  };
  // Counts before the first test (`clear`: the runs of clear gains, else the near ties). A lone
  // bucket: `need` a side. A run of k >= 2: per bucket the default 2 and the finalist 1, the
  // finalist `need` over the run, its extra trials at the largest sizes (where the screening
  // measured it, at an anchor, it has one already). The default's screening trial is one of them
  // only where the anchors' line selected the bucket.
  auto confirm = [&](bool clear) -> core::Status {
    std::map<OmpiConfig, std::map<std::size_t, std::size_t>> want;
    for (const auto& g : groups) {
      if (g.clear != clear) continue;
      const std::size_t k = g.buckets.size();
      std::vector<std::size_t> def(k, k == 1 ? need : 2), cfg(k, 1);
      for (std::size_t j = 0, n = k; n < need; ++n, j = (j + 1) % k) ++cfg[k - 1 - j];
      for (std::size_t j = 0; j < k; ++j) {
        auto& d = want[OmpiConfig{}][g.buckets[j]];
        d = std::max(d, def[j]);
        auto& c = want[g.cfg.at(g.buckets[j])][g.buckets[j]];
        c = std::max(c, cfg[j]);
      }
    }
    return top_up(want);
  };
  if (auto s = confirm(true); !s) return s;
  auto med_at = [&](const OmpiConfig& c, std::size_t b) {
    const auto* v = book.get(c, b);
    return v && !v->empty() ? median(medians(*v)) : 1e300;
  };
  auto fastest_at = [&](const OmpiConfig& c, std::size_t b) {
    const auto* v = book.get(c, b);
    double m = 1e300;
    if (v)
      for (const auto& x : *v) m = std::min(m, x.p50_us);
    return m;
  };
  // 4. refine the segment sizes not screened, where a configuration of the algorithm is the
  // finalist or predicted within 15 % of it: a segment size can close that gap. Largest bucket
  // first (where segmenting matters most), once each, down to the first where it does not beat
  // the finalist's median by worth_confirming; where it does, it replaces the finalist.
  bool refined = false;
  for (const auto& a : algs) {
    if (!a.segmented) continue;
    std::vector<std::size_t> where;  // in the runs of clear gains, whose finalists are confirmed by now
    for (const auto& [bytes, f] : finalist) {
      // b, not bytes, in the lambda: clang before 16 rejects capturing a structured binding.
      bool in_clear_run = std::any_of(groups.begin(), groups.end(), [b = bytes](const Group& g) { return g.clear && g.cfg.count(b); });
      for (const auto& c : screened)
        if (in_clear_run && c.alg == a.id && pred(bytes, c) <= 1.15 * pred(bytes, f)) {
          where.push_back(bytes);
          break;
        }
    }
    std::sort(where.rbegin(), where.rend());
    for (int seg : o.segsizes) {
      OmpiConfig c{a.id, seg};
      if (std::find(screened.begin(), screened.end(), c) != screened.end() || std::find(cands.begin(), cands.end(), c) == cands.end())
        continue;
      for (std::size_t b : where) {
        if (book.canon(c, b) != c || book.count(c, b) > 0) continue;
        if (auto s = book.run(c, {b}); !s) return s;
        Group* g = nullptr;
        for (auto& x : groups)
          if (x.cfg.count(b)) g = &x;
        if (!g || !book.get(c, b) || book.get(c, b)->front().p50_us >= (1 - o.worth_confirming) * fastest_at(g->cfg.at(b), b)) break;
        g->cfg[b] = c;
        refined = true;
      }
    }
  }
  if (refined)
    if (auto s = confirm(true); !s) return s;
  // 5./6. test each group; where the pooled gain is there but the ranks are not yet conclusive,
  // one more trial of the finalist and of the default in the buckets with an inverted pair (or,
  // with none, the one with the fewest trials), up to max_repeats a side.
  auto strata_of = [&](const Group& g) {
    std::vector<Stratum> st;
    for (std::size_t b : g.buckets) {
      const auto *x = book.get(g.cfg.at(b), b), *y = book.get(OmpiConfig{}, b);
      st.push_back({x ? medians(*x) : std::vector<double>{}, y ? medians(*y) : std::vector<double>{}});
    }
    return st;
  };
  auto run_noise = [&](const Group& g) {
    std::vector<std::vector<double>> ys;
    for (std::size_t b : g.buckets)
      if (const auto* y = book.get(OmpiConfig{}, b)) ys.push_back(medians(*y));
    return trial_noise(ys);
  };
  auto pooled_gain = [&](const Group& g) {
    std::vector<double> gains;
    for (std::size_t b : g.buckets) gains.push_back(1 - med_at(g.cfg.at(b), b) / med_at(OmpiConfig{}, b));
    return median(gains);
  };
  auto test_and_repeat = [&]() -> core::Status {
    for (;;) {
      std::map<OmpiConfig, std::map<std::size_t, std::size_t>> want;
      for (auto& g : groups) {
        if (g.stale) continue;
        auto st = strata_of(g);
        g.passed = g.passed || mann_whitney_p_less(st) <= o.alpha;
        if (g.passed) {
          // A bucket without evidence of its own but a gain: one more trial a side there.
          for (std::size_t j = 0; j < st.size(); ++j) {
            const auto& [x, y] = st[j];
            std::size_t b = g.buckets[j], d = y.size() + 1, c = x.size() + 1;
            if (own_evidence(x, y, run_noise(g)) || std::max(d, c) > most || median(x) > (1 - o.min_gain) * median(y)) continue;
            want[OmpiConfig{}][b] = std::max(want[OmpiConfig{}][b], d);
            auto& wc = want[g.cfg.at(b)][b];
            wc = std::max(wc, c);
          }
          continue;
        }
        if (pooled_gain(g) < o.min_gain) continue;
        // A bucket whose own ranks are against its finalist is split off first (below), not repeated.
        bool against = false;
        for (const auto& [x, y] : st) against = against || favour(x, y) <= 0.5 * static_cast<double>(x.size() * y.size());
        if (against && st.size() > 1) continue;
        std::vector<std::size_t> pick;
        std::size_t fewest = 0;
        for (std::size_t j = 0; j < st.size(); ++j) {
          const auto& [x, y] = st[j];
          if (favour(x, y) < static_cast<double>(x.size() * y.size())) pick.push_back(j);
          if (x.size() + y.size() < st[fewest].first.size() + st[fewest].second.size()) fewest = j;
        }
        if (pick.empty()) pick.push_back(fewest);
        for (std::size_t j : pick) {
          std::size_t b = g.buckets[j], d = st[j].second.size() + 1, c = st[j].first.size() + 1;
          if (std::max(d, c) > most) continue;
          want[OmpiConfig{}][b] = std::max(want[OmpiConfig{}][b], d);
          auto& wc = want[g.cfg.at(b)][b];
          wc = std::max(wc, c);
        }
      }
      if (want.empty()) break;
      const long before = book.trials;
      if (auto s = top_up(want); !s) return s;
      if (book.trials == before) break;  // the budget is spent
    }
    return core::Status::ok();
  };
  // A run that stays inconclusive is split where a bucket's own ranks are against its finalist
  // (at most half the pairs in favour: the default keeps it); each remaining part gets one fresh
  // trial a side per bucket, so its test does not rest only on the trials that split it, and a
  // lone bucket `need` a side besides a selecting default trial, as any lone bucket.
  for (std::size_t round = 0; round < sizes.size(); ++round) {
    if (auto s = test_and_repeat(); !s) return s;
    std::vector<Group> next;
    std::map<OmpiConfig, std::map<std::size_t, std::size_t>> fresh;
    bool split = false;
    for (const auto& g : groups) {
      if (g.passed || g.buckets.size() == 1) {
        next.push_back(g);
        continue;
      }
      auto st = strata_of(g);
      std::vector<Group> parts;
      bool open = false;
      for (std::size_t j = 0; j < st.size(); ++j) {
        const auto& [x, y] = st[j];
        if (favour(x, y) <= 0.5 * static_cast<double>(x.size() * y.size())) {
          open = false;
          continue;
        }
        if (!open) parts.push_back({});
        open = true;
        parts.back().buckets.push_back(g.buckets[j]);
        parts.back().cfg[g.buckets[j]] = g.cfg.at(g.buckets[j]);
      }
      if (parts.size() == 1 && parts[0].buckets.size() == g.buckets.size()) {
        next.push_back(g);
        continue;
      }
      split = true;
      for (const auto& part : parts) {
        for (std::size_t b : part.buckets) {
          fresh[OmpiConfig{}][b] = book.count(OmpiConfig{}, b) + 1;
          fresh[part.cfg.at(b)][b] = book.count(part.cfg.at(b), b) + 1;
        }
        next.push_back(part);
      }
    }
    if (!split) break;
    groups = next;
    if (auto s = top_up(fresh); !s) return s;
    for (auto& g : groups)
      for (std::size_t b : g.buckets)
        for (const auto& [c, at] : fresh)
          if (auto it = at.find(b); it != at.end() && (c == OmpiConfig{} || c == g.cfg.at(b)) && book.count(c, b) < it->second)
            g.stale = true;
    if (auto s = confirm(true); !s) return s;
  }
  // Then the near ties, each a lone bucket, with what the budget has left.
  if (auto s = confirm(false); !s) return s;
  if (auto s = test_and_repeat(); !s) return s;
  // 6. decide per bucket, on the group that covers it.
  SearchResult res;
  for (std::size_t b : sizes) {
    BucketChoice bc;
    bc.bytes = b;
    const auto* d = book.get(OmpiConfig{}, b);
    const Group* g = nullptr;
    for (const auto& x : groups)
      if (x.cfg.count(b)) g = &x;
    if (!d || !g) {  // not confirmed: the screening trial is reported, and nothing can win
      bc.default_us = bc.best_us = d ? median(medians(*d)) : time_at(OmpiConfig{}, b);
      res.buckets.push_back(bc);
      continue;
    }
    bc.default_us = bc.best_us = median(medians(*d));
    bc.noise_us = within_trial_noise(*d);
    const OmpiConfig c = g->cfg.at(b);
    if (const auto* s = book.get(c, b)) {
      double m = median(medians(*s)), noise = std::max(within_trial_noise(*d), within_trial_noise(*s));
      if (m < bc.best_us) {
        bc.best = c;
        bc.best_us = m;
        bc.noise_us = noise;
      }
      double gain = bc.default_us - m;
      if (g->passed && own_evidence(medians(*s), medians(*d), run_noise(*g)) && gain >= o.min_gain * bc.default_us && gain > noise) bc.chosen = c;
    }
    bc.beats_noise = bc.chosen.alg != 0;
    res.buckets.push_back(bc);
  }
  res.trials = book.trials;
  res.launches = book.launches;
  res.exhaustive_trials = exhaustive;
  res.configurations = static_cast<int>(cands.size());
  res.budget = budget;
  res.skipped = book.skipped;
  return res;
}

core::Result<SearchResult> exhaustive_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes_in,
                                             const MeasureFn& measure, const SearchOptions& o) {
  const std::vector<std::size_t> sizes = sorted_unique(sizes_in);
  Book book(measure, canonical(algs, o));
  auto cfgs = all_configs(algs, o, sizes);
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
  res.exhaustive_trials = book.trials;
  res.configurations = static_cast<int>(cfgs.size());
  return res;
}

}  // namespace ncdx::model::tune
