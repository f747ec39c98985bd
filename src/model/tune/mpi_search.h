#pragma once
// The search of `ncdx tune`: which configuration to use per message-size bucket, measured, with
// fewer trials than trying everything. It sees a SearchSpace (search_space.h): candidates with an
// optional secondary knob and what each runs as. `--backend mpi`: Open MPI's coll_tuned
// algorithms and segment sizes (ompi_space below); `--backend nccl`: NCCL_ALGO x NCCL_PROTO pairs
// and channel counts (nccl_space.h). The steps, in Open MPI's words (the knob = the segment size):
//  1. screen: Open MPI's default once at every size; every algorithm at the default segment
//     size, and each segmented one also at the largest of `segsizes`, at anchor buckets only
//     (the first and last size and evenly between, about one in `anchor_stride`), each distinct
//     configuration once (ompi_runs_as: a forced configuration Open MPI runs as another is that one);
//  2. predict each screened configuration at the other buckets, linearly in bytes between the
//     neighbouring anchors (the alpha-beta line through them), and keep the best one as the
//     bucket's finalist if it is predicted to beat the default by `worth_confirming`: its own
//     screening trial, or between anchors the default's line through the anchors;
//  3. confirm: neighbouring buckets predicted to gain clearly (>= 10 % on their own default
//     trial) are confirmed together as a run, one stratum per bucket, the default to 2 trials per
//     bucket and the finalists to 1 (`need`, >= 4, over the run); a near tie is a lone bucket,
//     `need` trials a side, confirmed after the runs;
//  4. refine: the segment sizes not screened, once, where the algorithm is (near) the finalist,
//     largest bucket first; one that beats the finalist by `worth_confirming` replaces it;
//  5. repeat: a run whose ranks are not yet conclusive gets one more trial a side where they are
//     inverted, up to `max_repeats`; a bucket whose own ranks are against its finalist is split
//     off (the default stays) and the rest gets one fresh trial a side per bucket;
//  6. decide (rank_test.h): a bucket takes its finalist only if its run's trials beat the
//     default's by ranks (stratified one-sided exact Mann-Whitney p <= `alpha`), the bucket has
//     evidence of its own (its own rank test, or every finalist trial 10 % faster than every one
//     of >= 2 default trials), and its median beats the default's by `min_gain` and by more than
//     twice the within-trial standard error of the median; else the default stays.
// After screening the search stops at `max_share` of the exhaustive search's trials (issue #15:
// 25 %): what it could not confirm keeps the default.
// A trial is one (configuration, size) measurement of `iters` iterations; the exhaustive search
// it is compared with measures every distinct configuration at every size `exhaustive_repeats` times.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/tune/ompi_rules.h"
#include "model/tune/search_space.h"

namespace ncdx::model::tune {

struct Sample {
  double p50_us = 0, stdev_us = 0;
  int n = 0;
};
// Measures one configuration at the given sizes (one MPI job).
using MeasureFn = std::function<core::Result<std::map<std::size_t, Sample>>(const Config&, const std::vector<std::size_t>&)>;

struct SearchOptions {
  int anchor_stride = 4;
  int confirm_repeats = 2;
  std::vector<int> segsizes = {8192, 65536};  // Open MPI only (ompi_space): the knob values
  double min_gain = 0.01;
  // Below this predicted gain a bucket is not confirmed: the default is then within issue #15's
  // 97 % of the best even if the gain is real, and confirming costs trials (docs/TUNE.md).
  double worth_confirming = 0.03;
  double alpha = 0.05;  // one-sided; with 4 trials a side one inverted pair of 16 is tolerated
  int max_repeats = 6;  // 6 a side: one slow trial of 6 still leaves p = 30/924 = 0.032
  int exhaustive_repeats = 3;
  // A stricter decision, for spaces of many candidates that tie (nccl_tune.cc): the finalist's
  // median must also beat the fastest of >= 3 default trials by min_gain, and the default's median
  // by twice the bucket's trial-to-trial noise (docs/TUNE.md "Decision rule").
  bool tie_guard = false;
  // The search's trials at most, as a share of the exhaustive search's (distinct configurations x
  // sizes x exhaustive_repeats; issue #15: 25 %). Screening always runs; after it, a launch that
  // would pass the budget is skipped, and a bucket it would have confirmed keeps the default.
  // 0 = no budget.
  double max_share = 0.25;
  // Open MPI only (ompi_space): the job's rank count and element size, which configurations Open
  // MPI runs as another one at a size (ompi_runs_as); 0 ranks = unknown, every one is distinct.
  int nranks = 0;
  std::size_t elt_bytes = 4;
  // The Open MPI that runs the trials decides by the fixed decision of ompi_fixed_decision.h
  // (4.1.x, 5.0.x): a forced configuration that runs the messages it picks at a size is the
  // default there (ompi_space's runs_as), so it is neither measured apart nor chosen.
  bool default_is_fixed_decision = false;
};

struct BucketChoice {
  std::size_t bytes = 0;
  Config chosen;                 // alg 0 = the library's default decision kept
  Config best;                   // the fastest measured (may equal chosen)
  double default_us = 0, best_us = 0, noise_us = 0;
  bool beats_noise = false;
};

struct SearchResult {
  std::vector<BucketChoice> buckets;
  long trials = 0;
  int launches = 0;
  long exhaustive_trials = 0;  // what the exhaustive search measures: configurations x sizes x repeats
  int configurations = 0;      // distinct ones, the default included (all_configs)
  long budget = 0;             // max_share of exhaustive_trials, rounded down (with max_share 0: none)
  int skipped = 0;             // launches the budget skipped
};

core::Result<SearchResult> guided_search(const SearchSpace& space, const std::vector<std::size_t>& sizes, const MeasureFn& measure,
                                         const SearchOptions& o);
core::Result<SearchResult> exhaustive_search(const SearchSpace& space, const std::vector<std::size_t>& sizes,
                                             const MeasureFn& measure, const SearchOptions& o);
// Every configuration the exhaustive search tries (default first): each candidate at the default
// knob and, with has_knob, at each of `knobs`, less those that run as another one at every size of
// `sizes` (runs_as).
std::vector<Config> all_configs(const SearchSpace& space, const std::vector<std::size_t>& sizes);

// Open MPI's space: `algs` (the collective's algorithms at this rank count, ompi_algorithms_for),
// the segmented ones at `o.segsizes`, and ompi_runs_as at `o.nranks`.
SearchSpace ompi_space(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o);

// The same over ompi_space(algs, o).
core::Result<SearchResult> guided_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes,
                                         const MeasureFn& measure, const SearchOptions& o);
core::Result<SearchResult> exhaustive_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes,
                                             const MeasureFn& measure, const SearchOptions& o);
// (the segmented ring at the default segment size is the ring: ompi_runs_as).
std::vector<OmpiConfig> all_configs(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o,
                                    const std::vector<std::size_t>& sizes);

}  // namespace ncdx::model::tune
