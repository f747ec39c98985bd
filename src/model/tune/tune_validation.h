#pragma once
// The validation both tuners end with (mpi_tune.cc, nccl_tune.cc): the library's default, the
// tuned rules and (optionally) the exhaustive search's rules run interleaved, `repeats` times each,
// alternating the order so that no variant always runs first, and the per-bucket report built from
// their medians next to the searches' counts.
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "measure/collective/mpirun_trial.h"
#include "model/tune/mpi_search.h"
#include "model/tune/mpi_tune.h"

namespace ncdx::model::tune {

using Times = std::map<std::size_t, std::vector<double>>;  // bytes -> each run's p50

// Writes the tuned rules to `path` and, with `exhaustive_text`, the exhaustive search's rules (for
// the comparison only) to exhaustive_path(path).
core::Status write_rules(const std::string& path, const std::string& text, const std::string* exhaustive_text);
inline std::string exhaustive_path(const std::string& path) { return path + ".exhaustive"; }

// Runs variant 0 .. variants-1 `repeats` times, interleaved; times[v] holds variant v's p50s.
core::Result<std::vector<Times>> validate_interleaved(int variants, int repeats,
                                                      const std::function<core::Result<std::vector<measure::TrialRow>>(int)>& run);

// The report of one collective: `times` = {default, tuned[, exhaustive]} (validate_interleaved);
// `ex` null without the exhaustive search.
CollReport coll_report(measure::Collective c, const SearchResult& searched, const SearchResult* ex, int repeats,
                       const std::function<std::string(const Config&)>& label, const std::vector<Times>& times);

}  // namespace ncdx::model::tune
