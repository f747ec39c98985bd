#pragma once
// The search of `ncdx tune --backend mpi`: which coll_tuned configuration (algorithm, segment
// size) to use per message-size bucket, measured, with fewer trials than trying everything.
//  1. screen: Open MPI's default and every algorithm (default segment size) once, at anchor
//     buckets only (every `anchor_stride`-th size and the last);
//  2. predict each algorithm at the other buckets by log-log interpolation between anchors and
//     keep the best one as the bucket's finalist;
//  3. confirm: the default and each bucket's finalist `confirm_repeats` more times;
//  4. refine: for a segmented finalist, each of `segsizes` once, and again when it wins;
//  5. decide: the fastest median wins only if it beats the default by more than the measured
//     noise (the half-range of its repeats, of the default's, and twice the standard error of
//     the per-iteration median within a trial) and by at least `min_gain`; else the default stays.
// A trial is one (configuration, size) measurement of `iters` iterations; the exhaustive search
// it is compared with measures every configuration at every size `exhaustive_repeats` times.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/tune/ompi_rules.h"

namespace ncdx::model::tune {

struct Sample {
  double p50_us = 0, stdev_us = 0;
  int n = 0;
};
// Measures one configuration at the given sizes (one MPI job).
using MeasureFn = std::function<core::Result<std::map<std::size_t, Sample>>(const OmpiConfig&, const std::vector<std::size_t>&)>;

struct SearchOptions {
  int anchor_stride = 4;
  int confirm_repeats = 2;
  std::vector<int> segsizes = {8192, 65536};
  double min_gain = 0.01;
  int exhaustive_repeats = 3;
};

struct BucketChoice {
  std::size_t bytes = 0;
  OmpiConfig chosen;             // alg 0 = Open MPI's default decision kept
  OmpiConfig best;               // the fastest measured (may equal chosen)
  double default_us = 0, best_us = 0, noise_us = 0;
  bool beats_noise = false;
};

struct SearchResult {
  std::vector<BucketChoice> buckets;
  long trials = 0;
  int launches = 0;
};

// `algs`: the collective's algorithms at this rank count (ompi_algorithms_for).
core::Result<SearchResult> guided_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes,
                                         const MeasureFn& measure, const SearchOptions& o);
core::Result<SearchResult> exhaustive_search(const std::vector<OmpiAlgorithm>& algs, const std::vector<std::size_t>& sizes,
                                             const MeasureFn& measure, const SearchOptions& o);

// Every configuration the exhaustive search tries (default first).
std::vector<OmpiConfig> all_configs(const std::vector<OmpiAlgorithm>& algs, const SearchOptions& o);

}  // namespace ncdx::model::tune
