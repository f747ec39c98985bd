#include "model/tune/mpi_tune.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/atomic_file.h"
#include "core/log.h"

namespace ncdx::model::tune {

namespace {

using measure::Mca;

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

MeasureFn measure_with(const MpiTuneOptions& o, measure::Collective c, const std::vector<OmpiAlgorithm>& algs) {
  return [&o, c, algs](const OmpiConfig& cfg, const std::vector<std::size_t>& sizes) -> core::Result<std::map<std::size_t, Sample>> {
    Mca mca;
    if (cfg.alg != 0)
      for (const auto& a : algs)
        if (a.id == cfg.alg) mca = forced_mca(a, cfg);
    core::log::info("tune: {} {} at {} sizes", measure::name_of(c), label(cfg, algs, c), sizes.size());
    auto rows = measure::run_mpirun_trial(o.spec, c, mca, sizes);
    if (!rows) return rows.status();
    std::map<std::size_t, Sample> out;
    for (const auto& r : *rows) out[r.bytes] = Sample{r.p50_us, r.stdev_us, r.n};
    return out;
  };
}

OmpiCollRules rules_of(const SearchResult& r, const OmpiAlgorithm& any, int np, const std::string& what) {
  OmpiCollRules c;
  c.colltype = any.colltype;
  c.comm_size = np;
  c.comment = what;
  // A bucket's choice holds from the midpoint (in log size) below it, so the rule boundaries sit
  // between measured sizes rather than at them.
  for (std::size_t i = 0; i < r.buckets.size(); ++i) {
    std::size_t from = 0;
    if (i > 0) {
      std::size_t lo = r.buckets[i - 1].bytes, hi = r.buckets[i].bytes;
      from = lo == 0 ? 1 : static_cast<std::size_t>(std::sqrt(static_cast<double>(lo) * static_cast<double>(hi)));
      from = std::max(from, lo + 1);
    }
    c.rules.push_back({from, r.buckets[i].chosen});
  }
  return c;
}

}  // namespace

core::Result<MpiTuneReport> tune_mpi(const MpiTuneOptions& o) {
  auto all = ompi_algorithms();
  if (!all) return all.status();
  MpiTuneReport rep;
  rep.np = o.spec.np;
  rep.fabric = o.fabric;
  rep.rules_path = o.rules_path;
  rep.exhaustive = o.exhaustive;
  std::vector<OmpiCollRules> ours, best;
  std::vector<SearchResult> searched, exhausted;
  for (auto c : o.colls) {
    auto algs = ompi_algorithms_for(*all, c, o.spec.np);
    if (algs.empty()) return core::Status::usage("no Open MPI algorithms known for " + std::string(measure::name_of(c)));
    auto fn = measure_with(o, c, algs);
    SearchOptions so = o.search;
    so.nranks = o.spec.np;  // which forced configurations Open MPI runs as another (ompi_runs_as)
    auto g = guided_search(algs, o.sizes, fn, so);
    if (!g) return g.status().with_context("tuning " + std::string(measure::name_of(c)));
    SearchResult ex;
    if (o.exhaustive) {
      auto e = exhaustive_search(algs, o.sizes, fn, so);
      if (!e) return e.status().with_context("exhaustive search of " + std::string(measure::name_of(c)));
      if (e->trials != g->exhaustive_trials)
        return core::Status::internal("exhaustive search ran " + std::to_string(e->trials) + " trials, counted " +
                                      std::to_string(g->exhaustive_trials));
      ex = *e;
    }
    ours.push_back(rules_of(*g, algs.front(), o.spec.np,
                            std::string(measure::name_of(c)) + " (" + algs.front().ompi_coll + "), " + std::to_string(o.spec.np) +
                                " ranks, measured by ncdx tune"));
    if (o.exhaustive) best.push_back(rules_of(ex, algs.front(), o.spec.np, "exhaustive best"));
    searched.push_back(*g);
    exhausted.push_back(ex);
  }
  const std::string header =
      "Open MPI coll_tuned dynamic rules written by ncdx tune --backend mpi\n"
      "use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename THIS_FILE ...\n"
      "fabric: " + o.fabric + "; np " + std::to_string(o.spec.np) + "\n"
      "format: ompi/mca/coll/tuned/coll_tuned_dynamic_file.c (v4.1.x, v5.0.x): msg_size alg faninout segsize";
  rep.rules_text = render_dynamic_rules(ours, header);
  if (auto s = core::write_file_atomic(o.rules_path, rep.rules_text); !s) return s;
  const std::string best_path = o.rules_path + ".exhaustive";
  if (o.exhaustive)
    if (auto s = core::write_file_atomic(best_path, render_dynamic_rules(best, "exhaustive-search rules (comparison only)")); !s)
      return s;

  // Validation: default, tuned and exhaustive rules interleaved, same sizes, same job shape.
  auto rules_mca = [](const std::string& path) {
    return Mca{{"coll_tuned_use_dynamic_rules", "1"}, {"coll_tuned_dynamic_rules_filename", path}};
  };
  for (std::size_t ci = 0; ci < o.colls.size(); ++ci) {
    auto c = o.colls[ci];
    auto algs = ompi_algorithms_for(*all, c, o.spec.np);
    std::map<std::size_t, std::vector<double>> t_def, t_ours, t_ex;
    for (int r = 0; r < std::max(1, o.validate_repeats); ++r) {
      struct V {
        Mca mca;
        std::map<std::size_t, std::vector<double>>* into;
      };
      std::vector<V> runs{{{}, &t_def}, {rules_mca(o.rules_path), &t_ours}};
      if (o.exhaustive) runs.push_back({rules_mca(best_path), &t_ex});
      if (r % 2) std::reverse(runs.begin(), runs.end());  // no variant always runs first
      for (auto& v : runs) {
        auto rows = measure::run_mpirun_trial(o.spec, c, v.mca, o.sizes);
        if (!rows) return rows.status().with_context("validating " + std::string(measure::name_of(c)));
        for (const auto& row : *rows) (*v.into)[row.bytes].push_back(row.p50_us);
      }
    }
    CollReport cr;
    cr.coll = c;
    cr.trials = searched[ci].trials;
    cr.launches = searched[ci].launches;
    cr.exhaustive_trials = searched[ci].exhaustive_trials;
    cr.exhaustive_launches = exhausted[ci].launches;
    cr.configurations = searched[ci].configurations;
    cr.sizes = static_cast<int>(searched[ci].buckets.size());
    cr.repeats = std::max(1, o.search.exhaustive_repeats);
    cr.budget = searched[ci].budget;
    cr.skipped = searched[ci].skipped;
    for (std::size_t bi = 0; bi < searched[ci].buckets.size(); ++bi) {
      const auto& b = searched[ci].buckets[bi];
      BucketReport br;
      br.bytes = b.bytes;
      br.chosen = label(b.chosen, algs, c);
      br.changed = b.chosen.alg != 0;
      br.search_noise_us = b.noise_us;
      br.default_us = median(t_def[b.bytes]);
      br.tuned_us = median(t_ours[b.bytes]);
      br.gain_vs_default = br.tuned_us > 0 ? br.default_us / br.tuned_us : 0;
      if (o.exhaustive && bi < exhausted[ci].buckets.size()) {
        br.exhaustive_best = label(exhausted[ci].buckets[bi].chosen, algs, c);
        br.exhaustive_us = median(t_ex[b.bytes]);
        br.pct_of_exhaustive = br.tuned_us > 0 ? 100.0 * br.exhaustive_us / br.tuned_us : 0;
        br.same_as_exhaustive = br.exhaustive_best == br.chosen;
      }
      cr.buckets.push_back(br);
    }
    rep.colls.push_back(cr);
  }
  return rep;
}

}  // namespace ncdx::model::tune
