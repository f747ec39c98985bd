#include "model/tune/mpi_tune.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/log.h"
#include "model/tune/ompi_fixed_decision.h"
#include "model/tune/tune_validation.h"

namespace ncdx::model::tune {

namespace {

using measure::Mca;

MeasureFn measure_with(const MpiTuneOptions& o, measure::Collective c, const std::vector<OmpiAlgorithm>& algs) {
  return [&o, c, algs](const Config& cfg, const std::vector<std::size_t>& sizes) -> core::Result<std::map<std::size_t, Sample>> {
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
  // Which Open MPI runs the trials decides what its default is (ompi_fixed_decision.h).
  const auto version = measure::open_mpi_version(o.spec);
  if (version) rep.library = "Open MPI " + *version;
  const bool fixed = version && ompi_fixed_decision_applies(*version);
  for (auto c : o.colls) {
    auto algs = ompi_algorithms_for(*all, c, o.spec.np);
    if (algs.empty()) return core::Status::usage("no Open MPI algorithms known for " + std::string(measure::name_of(c)));
    auto fn = measure_with(o, c, algs);
    SearchOptions so = o.search;
    so.nranks = o.spec.np;  // which forced configurations Open MPI runs as another (ompi_runs_as)
    so.default_is_fixed_decision = fixed;
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
      "fabric: " + o.fabric + "; np " + std::to_string(o.spec.np) + (version ? "; Open MPI " + *version : std::string()) + "\n"
      "format: ompi/mca/coll/tuned/coll_tuned_dynamic_file.c (v4.1.x, v5.0.x): msg_size alg faninout segsize";
  rep.rules_text = render_dynamic_rules(ours, header);
  const std::string best_text = render_dynamic_rules(best, "exhaustive-search rules (comparison only)"), best_path = exhaustive_path(o.rules_path);
  if (auto s = write_rules(o.rules_path, rep.rules_text, o.exhaustive ? &best_text : nullptr); !s) return s;

  // Validation: default, tuned and exhaustive rules interleaved, same sizes, same job shape.
  auto rules_mca = [](const std::string& path) {
    return Mca{{"coll_tuned_use_dynamic_rules", "1"}, {"coll_tuned_dynamic_rules_filename", path}};
  };
  for (std::size_t ci = 0; ci < o.colls.size(); ++ci) {
    auto c = o.colls[ci];
    auto algs = ompi_algorithms_for(*all, c, o.spec.np);
    std::vector<Mca> variants{{}, rules_mca(o.rules_path)};
    if (o.exhaustive) variants.push_back(rules_mca(best_path));
    auto times = validate_interleaved(static_cast<int>(variants.size()), o.validate_repeats,
                                      [&](int v) { return measure::run_mpirun_trial(o.spec, c, variants[static_cast<std::size_t>(v)], o.sizes); });
    if (!times) return times.status().with_context("validating " + std::string(measure::name_of(c)));
    rep.colls.push_back(coll_report(c, searched[ci], o.exhaustive ? &exhausted[ci] : nullptr, o.search.exhaustive_repeats,
                                    [&](const Config& x) { return label(x, algs, c); }, *times));
  }
  return rep;
}

}  // namespace ncdx::model::tune
