#include <algorithm>
#include <cmath>
#include <map>

#include "model/tune/mpi_search.h"
#include "model/tune/rank_test.h"
#include "model/tune/trial_book.h"

// The guided search of mpi_search.h, one method per step of the header's list.
namespace ncdx::model::tune {

namespace {

using trials::Book;
using trials::median;
using trials::medians;
using trials::within_trial_noise;

// Anchor indices: the first and the last size and evenly between, one about every `stride`
// sizes: 4 sizes -> {0, 3}, 6 -> {0, 3, 5}, 11 -> {0, 3, 7, 10}.
std::vector<std::size_t> anchor_indices(std::size_t n, int stride) {
  if (n <= 1) return {0};
  const std::size_t k = (n - 1 + static_cast<std::size_t>(stride) - 1) / static_cast<std::size_t>(stride) + 1;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < k; ++i) out.push_back((i * (n - 1) + (k - 1) / 2) / (k - 1));
  return trials::sorted_unique(out);
}

// A run of neighbouring buckets that are worth confirming, confirmed and tested together (one
// stratum per bucket, each with its own finalist): the pooled test needs fewer trials per bucket
// than one test per bucket, and a bucket whose finalist loses drags the whole run's ranks down.
struct Group {
  std::vector<std::size_t> buckets;
  std::map<std::size_t, Config> cfg;
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

// Trials wanted: (configuration, bucket) -> count.
using Want = std::map<Config, std::map<std::size_t, std::size_t>>;
constexpr double kNone = 1e300;  // no trial: slower than anything measured

class GuidedSearch {
 public:
  GuidedSearch(const SearchSpace& space, std::vector<std::size_t> sizes, const MeasureFn& measure, const SearchOptions& o)
      : space_(space),
        sizes_(std::move(sizes)),
        o_(o),
        book_(measure, trials::canonical(space)),
        anchor_idx_(anchor_indices(sizes_.size(), std::max(1, o.anchor_stride))),
        // Four trials a side for a lone bucket: with three, the rank test passes whenever every
        // default trial is slow (p = 1/20), which a 10 % heavy tail does to 1 bucket in 1000;
        // with four it takes 1 in 10^4, and one inverted pair is still tolerated (p = 2/70).
        need_(static_cast<std::size_t>(std::max(4, o.confirm_repeats + 1))),
        most_(std::max<std::size_t>(need_, static_cast<std::size_t>(o.max_repeats))),
        own_evidence_{o.alpha},
        cands_(all_configs(space, sizes_)) {
    for (std::size_t i : anchor_idx_) anchors_.push_back(sizes_[i]);
  }

  core::Result<SearchResult> run() {
    if (auto s = screen(); !s) return s;
    predict();
    form_groups();
    if (auto s = confirm(true); !s) return s;
    if (auto s = refine(); !s) return s;
    // A run that stays inconclusive is split, at most once per bucket.
    for (std::size_t round = 0; round < sizes_.size(); ++round) {
      if (auto s = test_and_repeat(); !s) return s;
      auto split = split_inconclusive();
      if (!split) return split.status();
      if (!*split) break;
    }
    // Then the near ties, each a lone bucket, with what the budget has left.
    if (auto s = confirm(false); !s) return s;
    if (auto s = test_and_repeat(); !s) return s;
    return decide();
  }

 private:
  bool is_anchor(std::size_t i) const { return std::binary_search(anchor_idx_.begin(), anchor_idx_.end(), i); }
  double time_at(const Config& c, std::size_t bytes) const {
    const auto* v = book_.first(c, bytes);
    return v ? v->p50_us : kNone;
  }
  // Linear in bytes between the neighbouring anchors, i.e. the alpha-beta (Hockney) line through
  // them; log-log interpolation overestimates such a line mid-span (predicted 497 us against 430
  // us at 2 MiB on MpiSearch.*).
  double interpolate(const Config& c, std::size_t i) const {
    auto hi = std::lower_bound(anchor_idx_.begin(), anchor_idx_.end(), i);
    std::size_t a1 = *hi, a0 = (*hi == i || hi == anchor_idx_.begin()) ? *hi : *(hi - 1);
    double t0 = time_at(c, sizes_[a0]), t1 = time_at(c, sizes_[a1]);
    if (a0 == a1 || t0 >= kNone || t1 >= kNone) return t1;
    double w = static_cast<double>(sizes_[i] - sizes_[a0]) / static_cast<double>(sizes_[a1] - sizes_[a0]);
    return (1 - w) * t0 + w * t1;
  }
  double pred(std::size_t bytes, const Config& c) const {
    auto it = predicted_.find({bytes, c});
    return it == predicted_.end() ? kNone : it->second;
  }
  double med_at(const Config& c, std::size_t b) const {
    const auto* v = book_.get(c, b);
    return v && !v->empty() ? median(medians(*v)) : kNone;
  }
  double fastest_at(const Config& c, std::size_t b) const {
    const auto* v = book_.get(c, b);
    double m = kNone;
    if (v)
      for (const auto& x : *v) m = std::min(m, x.p50_us);
    return m;
  }

  // 1. screen. The default at every size: it switches algorithm between anchors (Open MPI's
  // decision is piecewise by size), so it cannot be interpolated, and it is the bar everywhere.
  // That trial selects the buckets to confirm, so it is no evidence for a change there: one slow
  // default trial (a 10 % heavy tail hits 1 in 10) is what selects a bucket, and counting it
  // would leave three more slow ones, not four, between the default and a loss.
  core::Status screen() {
    if (auto s = book_.run(Config{}, sizes_, false); !s) return s;
    for (const auto& c : cands_) {
      if (c.alg == 0) continue;
      // One knob value besides the default one, the largest: a segment size can change the
      // algorithm's bandwidth, so predicting it from the default segment size alone misses the
      // crossover where it wins (issue #15: the 64 KiB ring at 2 MiB).
      bool knob_max = !space_.knobs.empty() && c.knob == *std::max_element(space_.knobs.begin(), space_.knobs.end());
      if (c.knob == 0 || knob_max) screened_.push_back(c);
    }
    // Each distinct configuration once per anchor: where a screened configuration runs as another
    // screened one (the 64 KiB segmented ring below 4 x 64 KiB at 4 ranks is the ring), that
    // one's trial stands for both.
    for (const auto& c : screened_) {
      std::vector<std::size_t> at;
      for (std::size_t a : anchors_) {
        Config k = book_.canon(c, a);
        bool other = k != c && std::find(screened_.begin(), screened_.end(), k) != screened_.end() && book_.canon(k, a) == k;
        if (!other) at.push_back(a);
      }
      if (auto s = book_.run(c, at); !s) return s;
    }
    exhaustive_ = static_cast<long>(cands_.size() * sizes_.size()) * std::max(1, o_.exhaustive_repeats);
    budget_ = o_.max_share > 0 ? static_cast<long>(std::floor(o_.max_share * static_cast<double>(exhaustive_) + 1e-9)) : 0;
    if (o_.max_share > 0) book_.cap = std::max(budget_, book_.trials);
    return core::Status::ok();
  }

  // 2. predict each screened configuration at every bucket and keep each bucket's finalist.
  void predict() {
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      double best = kNone;
      Config pick;
      for (const auto& c : screened_) {
        double t = interpolate(c, i);
        predicted_[{sizes_[i], c}] = t;
        if (t < best) {
          best = t;
          pick = c;
        }
      }
      // Worth confirming only where the finalist is predicted to gain more than worth_confirming
      // on the default: a smaller gain, even if real, keeps the default within the target. The
      // bar is the bucket's own default trial (Open MPI's decision switches algorithm between
      // anchors, so the default cannot be interpolated), or between anchors also the default's
      // line through them: a bucket selected that way did not need its own default trial to be
      // selected, so that trial is evidence there; else it selected the bucket and is never
      // evidence for a change.
      const double own = time_at(Config{}, sizes_[i]), cut = 1 - o_.worth_confirming;
      const bool by_line = !is_anchor(i) && best < cut * interpolate(Config{}, i);
      if (by_line) book_.promote(Config{}, sizes_[i]);
      if (by_line || best < cut * own) finalist_[sizes_[i]] = pick;
      // Clear or near tie, on the own trial only: the line misses a switch between the anchors
      // (Rabenseifner's eager/rendezvous step at 64 KiB made a tie there look like a 10 % gain).
      if (own < kNone) predicted_gain_[sizes_[i]] = 1 - best / own;
    }
  }

  // 3. groups: runs of neighbouring buckets worth confirming.
  void form_groups() {
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      auto it = finalist_.find(sizes_[i]);
      if (it == finalist_.end()) continue;
      // Only buckets predicted to gain clearly (10 %) share a run: a near tie is its own lone
      // bucket, confirmed after them, so that its ranks do not sink a run of clear gains.
      const bool clear = predicted_gain_[sizes_[i]] >= 0.10;
      const bool joins = clear && !groups_.empty() && groups_.back().buckets.back() == (i > 0 ? sizes_[i - 1] : 0) &&
                         predicted_gain_[groups_.back().buckets.back()] >= 0.10;
      if (!joins) groups_.push_back({});
      groups_.back().clear = clear;
      groups_.back().buckets.push_back(sizes_[i]);
      groups_.back().cfg[sizes_[i]] = it->second;
    }
  }

  // Bring each (configuration, bucket) to its count, one launch per configuration and round.
  core::Status top_up(const Want& want) {
    std::size_t rounds = 0;
    for (const auto& [c, at] : want)
      for (const auto& [b, n] : at) rounds = std::max(rounds, n);
    for (std::size_t r = 1; r <= rounds; ++r)
      for (const auto& [c, at] : want) {
        std::vector<std::size_t> short_of;
        for (const auto& [b, n] : at)
          if (n >= r && book_.count(c, b) < r) short_of.push_back(b);
        if (auto s = book_.run(c, short_of); !s) return s;
      }
    return core::Status::ok();
  }

  // Counts before the first test (`clear`: the runs of clear gains, else the near ties). A lone
  // bucket: `need` a side. A run of k >= 2: per bucket the default 2 and the finalist 1, the
  // finalist `need` over the run, its extra trials at the largest sizes (where the screening
  // measured it, at an anchor, it has one already). The default's screening trial is one of them
  // only where the anchors' line selected the bucket.
  core::Status confirm(bool clear) {
    Want want;
    for (const auto& g : groups_) {
      if (g.clear != clear) continue;
      const std::size_t k = g.buckets.size();
      std::vector<std::size_t> def(k, k == 1 ? need_ : 2), cfg(k, 1);
      for (std::size_t j = 0, n = k; n < need_; ++n, j = (j + 1) % k) ++cfg[k - 1 - j];
      for (std::size_t j = 0; j < k; ++j) {
        auto& d = want[Config{}][g.buckets[j]];
        d = std::max(d, def[j]);
        auto& c = want[g.cfg.at(g.buckets[j])][g.buckets[j]];
        c = std::max(c, cfg[j]);
      }
    }
    return top_up(want);
  }

  // 4. refine the knob values not screened (segment sizes, channel counts), where a configuration
  // of the algorithm is the finalist or predicted within 15 % of it: a knob can close that gap.
  // Once at each such bucket, largest first; where it beats the finalist's median by
  // worth_confirming it replaces the finalist. Every bucket, not down to the first miss: a knob's
  // gain is not monotone in size — Open MPI's 8 KiB segments are eager messages (btl tcp's 64 KiB
  // eager limit), which beat the ring's 64 KiB rendezvous blocks at 256 KiB on 4 ranks and lose
  // to its 1 MiB blocks at 4 MiB (docs/PERFORMANCE.md, namespace runs 3 and 4: 90.6-92.3 % of
  // the exhaustive best at 256 KiB when the 4 MiB miss stopped the refinement).
  core::Status refine() {
    bool refined = false;
    for (const auto& a : space_.cands) {
      if (!a.has_knob) continue;
      std::vector<std::size_t> where;  // in the runs of clear gains, whose finalists are confirmed by now
      for (const auto& [bytes, f] : finalist_) {
        // b, not bytes, in the lambda: clang before 16 rejects capturing a structured binding.
        bool in_clear_run = std::any_of(groups_.begin(), groups_.end(), [b = bytes](const Group& g) { return g.clear && g.cfg.count(b); });
        for (const auto& c : screened_)
          if (in_clear_run && c.alg == a.id && pred(bytes, c) <= 1.15 * pred(bytes, f)) {
            where.push_back(bytes);
            break;
          }
      }
      std::sort(where.rbegin(), where.rend());
      for (int seg : space_.knobs) {
        Config c{a.id, seg};
        if (std::find(screened_.begin(), screened_.end(), c) != screened_.end() || std::find(cands_.begin(), cands_.end(), c) == cands_.end())
          continue;
        for (std::size_t b : where) {
          if (book_.canon(c, b) != c || book_.count(c, b) > 0) continue;
          if (auto s = book_.run(c, {b}); !s) return s;
          Group* g = group_of(b);
          if (!g || !book_.get(c, b) || book_.get(c, b)->front().p50_us >= (1 - o_.worth_confirming) * fastest_at(g->cfg.at(b), b)) continue;
          g->cfg[b] = c;
          refined = true;
        }
      }
    }
    return refined ? confirm(true) : core::Status::ok();
  }

  // The last group that covers bucket b (after a split, the part that holds it).
  Group* group_of(std::size_t b) {
    Group* g = nullptr;
    for (auto& x : groups_)
      if (x.cfg.count(b)) g = &x;
    return g;
  }

  std::vector<Stratum> strata_of(const Group& g) const {
    std::vector<Stratum> st;
    for (std::size_t b : g.buckets) {
      const auto *x = book_.get(g.cfg.at(b), b), *y = book_.get(Config{}, b);
      st.push_back({x ? medians(*x) : std::vector<double>{}, y ? medians(*y) : std::vector<double>{}});
    }
    return st;
  }
  double run_noise(const Group& g) const {
    std::vector<std::vector<double>> ys;
    for (std::size_t b : g.buckets)
      if (const auto* y = book_.get(Config{}, b)) ys.push_back(medians(*y));
    return trial_noise(ys);
  }
  double pooled_gain(const Group& g) const {
    std::vector<double> gains;
    for (std::size_t b : g.buckets) gains.push_back(1 - med_at(g.cfg.at(b), b) / med_at(Config{}, b));
    return median(gains);
  }
  // One more trial of the finalist and of the default in bucket b, if neither passes `most`.
  void want_one_more(Want& want, const Group& g, std::size_t b, const Stratum& st) const {
    std::size_t d = st.second.size() + 1, c = st.first.size() + 1;
    if (std::max(d, c) > most_) return;
    want[Config{}][b] = std::max(want[Config{}][b], d);
    auto& wc = want[g.cfg.at(b)][b];
    wc = std::max(wc, c);
  }

  // 5. test each group; where the pooled gain is there but the ranks are not yet conclusive, one
  // more trial of the finalist and of the default in the buckets with an inverted pair (or, with
  // none, the one with the fewest trials), up to max_repeats a side.
  core::Status test_and_repeat() {
    for (;;) {
      Want want;
      for (auto& g : groups_) {
        if (g.stale) continue;
        auto st = strata_of(g);
        g.passed = g.passed || mann_whitney_p_less(st) <= o_.alpha;
        if (g.passed) {
          // A bucket without evidence of its own but a gain: one more trial a side there (with
          // tie_guard also while it has fewer than 3 default trials).
          for (std::size_t j = 0; j < st.size(); ++j) {
            const auto& [x, y] = st[j];
            const bool few = o_.tie_guard && y.size() < 3;
            if ((own_evidence_(x, y, run_noise(g)) && !few) || median(x) > (1 - o_.min_gain) * median(y)) continue;
            want_one_more(want, g, g.buckets[j], st[j]);
          }
          continue;
        }
        if (pooled_gain(g) < o_.min_gain) continue;
        // A bucket whose own ranks are against its finalist is split off first (split_inconclusive), not repeated.
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
        for (std::size_t j : pick) want_one_more(want, g, g.buckets[j], st[j]);
      }
      if (want.empty()) break;
      const long before = book_.trials;
      if (auto s = top_up(want); !s) return s;
      if (book_.trials == before) break;  // the budget is spent
    }
    return core::Status::ok();
  }

  // A run that stays inconclusive is split where a bucket's own ranks are against its finalist
  // (at most half the pairs in favour: the default keeps it); each remaining part gets one fresh
  // trial a side per bucket, so its test does not rest only on the trials that split it, and a
  // lone bucket `need` a side besides a selecting default trial, as any lone bucket. True if any
  // run was split.
  core::Result<bool> split_inconclusive() {
    std::vector<Group> next;
    Want fresh;
    bool split = false;
    for (const auto& g : groups_) {
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
          fresh[Config{}][b] = book_.count(Config{}, b) + 1;
          fresh[part.cfg.at(b)][b] = book_.count(part.cfg.at(b), b) + 1;
        }
        next.push_back(part);
      }
    }
    if (!split) return false;
    groups_ = next;
    if (auto s = top_up(fresh); !s) return s;
    for (auto& g : groups_)
      for (std::size_t b : g.buckets)
        for (const auto& [c, at] : fresh)
          if (auto it = at.find(b); it != at.end() && (c == Config{} || c == g.cfg.at(b)) && book_.count(c, b) < it->second)
            g.stale = true;
    if (auto s = confirm(true); !s) return s;
    return true;
  }

  // 6. decide per bucket, on the group that covers it.
  SearchResult decide() {
    SearchResult res;
    for (std::size_t b : sizes_) {
      BucketChoice bc;
      bc.bytes = b;
      const auto* d = book_.get(Config{}, b);
      const Group* g = group_of(b);
      if (!d || !g) {  // not confirmed: the screening trial is reported, and nothing can win
        bc.default_us = bc.best_us = d ? median(medians(*d)) : time_at(Config{}, b);
        res.buckets.push_back(bc);
        continue;
      }
      bc.default_us = bc.best_us = median(medians(*d));
      bc.noise_us = within_trial_noise(*d);
      // Reported as what the library runs (a segmented ring of one phase is the ring): the rules
      // file then names it, and the exhaustive search's choice compares with it.
      const Config c = book_.canon(g->cfg.at(b), b);
      if (const auto* s = book_.get(c, b)) {
        double m = median(medians(*s)), noise = std::max(within_trial_noise(*d), within_trial_noise(*s));
        if (m < bc.best_us) {
          bc.best = c;
          bc.best_us = m;
          bc.noise_us = noise;
        }
        double gain = bc.default_us - m;
        // With tie_guard: (d) against the fastest of >= 3 default trials too, which trials hit by
        // the scheduler cannot make slower (the median of 2 default trials is their mean); (e) by
        // more than twice the bucket's trial-to-trial noise, not only the within-trial one: each
        // trial is its own process, and a process's speed drifts (the stand-in libnccl: 10 % at
        // 16 KiB between launches, 0.03 us within one).
        const auto dm = medians(*d);
        const bool beats_fastest =
            !o_.tie_guard || (dm.size() >= 3 && m <= (1 - o_.min_gain) * *std::min_element(dm.begin(), dm.end()) &&
                              gain > 2 * trial_noise({dm}) * bc.default_us);
        if (g->passed && own_evidence_(medians(*s), dm, run_noise(*g)) && gain >= o_.min_gain * bc.default_us && gain > noise && beats_fastest)
          bc.chosen = c;
      }
      bc.beats_noise = bc.chosen.alg != 0;
      res.buckets.push_back(bc);
    }
    res.trials = book_.trials;
    res.launches = book_.launches;
    res.exhaustive_trials = exhaustive_;
    res.configurations = static_cast<int>(cands_.size());
    res.budget = budget_;
    res.skipped = book_.skipped;
    return res;
  }

  const SearchSpace& space_;
  const std::vector<std::size_t> sizes_;
  const SearchOptions& o_;
  Book book_;
  const std::vector<std::size_t> anchor_idx_;
  std::vector<std::size_t> anchors_;
  const std::size_t need_, most_;
  const OwnRule own_evidence_;
  const std::vector<Config> cands_;
  std::vector<Config> screened_;
  long exhaustive_ = 0, budget_ = 0;
  std::map<std::size_t, Config> finalist_;
  std::map<std::size_t, double> predicted_gain_;
  std::map<std::pair<std::size_t, Config>, double> predicted_;
  std::vector<Group> groups_;
};

}  // namespace

core::Result<SearchResult> guided_search(const SearchSpace& space, const std::vector<std::size_t>& sizes, const MeasureFn& measure,
                                         const SearchOptions& o) {
  auto s = trials::sorted_unique(sizes);
  if (s.empty()) return core::Status::usage("no sizes to tune");
  return GuidedSearch(space, std::move(s), measure, o).run();
}

}  // namespace ncdx::model::tune
