#pragma once
// One measurement trial of `ncdx tune --backend mpi`: `mpirun -np N [args] --mca K V ...
// ncdx bench COLL --backend mpi --sizes ... --json`, launched as a child process, its ncdx.bench/1
// JSON read back. MCA parameters are how Open MPI's coll_tuned algorithm is forced
// (coll_tuned_use_dynamic_rules 1, coll_tuned_<coll>_algorithm N, ..._segmentsize S) or a
// dynamic-rules file is loaded (coll_tuned_dynamic_rules_filename), so every trial is a fresh
// MPI job: Open MPI reads them only at start-up.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "measure/collective/collective.h"

namespace ncdx::measure {

struct MpirunSpec {
  std::string mpirun = "mpirun";
  int np = 4;
  std::vector<std::string> args;  // extra mpirun arguments (hostfile, rsh agent, btl, ...)
  std::string ncdx;               // this binary; empty = /proc/self/exe
  int iters = 20, warmup = 3;
  int timeout_s = 300;
};

struct TrialRow {
  std::size_t bytes = 0;
  double time_us = 0;    // nccl-tests' time column (out of place)
  double p50_us = 0;     // per-iteration median
  double stdev_us = 0;   // per-iteration standard deviation
  int n = 0;
};

using Mca = std::vector<std::pair<std::string, std::string>>;

core::Result<std::vector<TrialRow>> run_mpirun_trial(const MpirunSpec& spec, Collective c, const Mca& mca,
                                                     const std::vector<std::size_t>& sizes);

// The argv of that trial (exposed for tests and for `--dry-run`).
std::vector<std::string> mpirun_argv(const MpirunSpec& spec, Collective c, const Mca& mca, const std::vector<std::size_t>& sizes);

// Reads the rows of an ncdx.bench/1 document (bad input -> 65).
core::Result<std::vector<TrialRow>> trial_rows_from_json(std::string_view text, std::string_view source);

}  // namespace ncdx::measure
