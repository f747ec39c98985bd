#pragma once
// `ncdx tune --backend mpi`: per collective, the guided search (mpi_search.h) over Open MPI's
// coll_tuned configurations, an Open MPI dynamic-rules file with the choices, and a validation
// in which the default decision, the tuned rules and (with `exhaustive`) the exhaustive search's
// rules run interleaved, `validate_repeats` times each, so the gains are measured under the
// same conditions rather than taken from the search's own (optimistic) minima.
#include <cstddef>
#include <string>
#include <vector>

#include "core/result.h"
#include "measure/collective/mpirun_trial.h"
#include "model/tune/mpi_search.h"

namespace ncdx::model::tune {

struct MpiTuneOptions {
  measure::MpirunSpec spec;
  std::vector<measure::Collective> colls{measure::Collective::allreduce};
  std::vector<std::size_t> sizes;
  SearchOptions search;
  bool exhaustive = true;
  int validate_repeats = 3;
  std::string rules_path = "ompi_coll_rules.conf";
  std::string fabric = "loopback";  // what the ranks talk over, for the report
};

struct BucketReport {
  std::size_t bytes = 0;
  std::string chosen, exhaustive_best;
  bool changed = false;
  double search_noise_us = 0;
  double default_us = 0, tuned_us = 0, exhaustive_us = 0;  // validation medians
  double gain_vs_default = 0;                               // default / tuned
  double pct_of_exhaustive = 0;                             // 100 x exhaustive / tuned
  // The tuned and the exhaustive rule pick the same configuration in this bucket: their validation
  // times differ only by noise (10-35 % per bucket on a shaped TCP fabric, docs/PERFORMANCE.md).
  bool same_as_exhaustive = false;
};

struct CollReport {
  measure::Collective coll = measure::Collective::allreduce;
  std::vector<BucketReport> buckets;
  long trials = 0, exhaustive_trials = 0;  // exhaustive: configurations x sizes x repeats, run or not
  int launches = 0, exhaustive_launches = 0;
  int configurations = 0, sizes = 0, repeats = 0;
  long budget = 0;   // the search's trials at most (0: none)
  int skipped = 0;   // launches the budget skipped
};

struct MpiTuneReport {
  std::vector<CollReport> colls;
  std::string rules_text, rules_path, fabric, library;
  int np = 0;
  bool exhaustive = false;
};

core::Result<MpiTuneReport> tune_mpi(const MpiTuneOptions& o);

}  // namespace ncdx::model::tune
