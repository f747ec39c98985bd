#pragma once
// One measurement trial of `ncdx tune`: `mpirun -np N [args] --mca K V ... [-x NAME ...]
// ncdx bench COLL --backend B --sizes ... --json`, launched as a child process, its ncdx.bench/1
// JSON read back. MCA parameters are how Open MPI's coll_tuned algorithm is forced
// (coll_tuned_use_dynamic_rules 1, coll_tuned_<coll>_algorithm N, ..._segmentsize S) or a
// dynamic-rules file is loaded (coll_tuned_dynamic_rules_filename), so every trial is a fresh
// MPI job: Open MPI reads them only at start-up. NCCL reads NCCL_ALGO, NCCL_PROTO, the channel
// counts and NCCL_TUNER_PLUGIN at communicator creation, so an NCCL trial is a fresh process too
// (`--backend nccl`: without mpirun when np is 0, one process driving every local GPU).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "measure/collective/collective.h"

namespace ncdx::measure {

struct MpirunSpec {
  std::string mpirun = "mpirun";
  int np = 4;                     // 0: no mpirun, one `ncdx bench` process (--backend nccl only)
  std::string backend = "mpi";    // ncdx bench --backend
  int gpus = 0;                   // -g (nccl, GPUs per process); 0 = ncdx bench's default
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

// The trial's environment: `unset` removed and `set` set in the child (so that the caller's own
// NCCL_ALGO does not leak into NCCL's default); under mpirun each set variable is also exported to
// the ranks with Open MPI's `-x NAME` (other hosts get nothing else of the caller's environment).
struct TrialEnv {
  std::vector<std::string> unset;
  std::vector<std::pair<std::string, std::string>> set;
};

struct TrialResult {
  std::vector<TrialRow> rows;
  std::string library;  // "NCCL 2.27.7", "Open MPI v4.1.4"
  int nranks = 0;
  int nodes = 0;        // distinct hosts among the ranks
};

core::Result<TrialResult> run_trial(const MpirunSpec& spec, Collective c, const Mca& mca, const TrialEnv& env,
                                    const std::vector<std::size_t>& sizes);
core::Result<std::vector<TrialRow>> run_mpirun_trial(const MpirunSpec& spec, Collective c, const Mca& mca,
                                                     const std::vector<std::size_t>& sizes);

// The Open MPI release of `spec.mpirun` ("4.1.4" from "mpirun (Open MPI) 4.1.4"); nullopt when it is
// not Open MPI or does not answer `--version` within 30 s.
std::optional<std::string> open_mpi_version(const MpirunSpec& spec);
// The same from that text (exposed for tests).
std::optional<std::string> open_mpi_version_of(std::string_view version_output);

// The argv of that trial (exposed for tests and for `--dry-run`).
std::vector<std::string> trial_argv(const MpirunSpec& spec, Collective c, const Mca& mca, const TrialEnv& env,
                                    const std::vector<std::size_t>& sizes);
std::vector<std::string> mpirun_argv(const MpirunSpec& spec, Collective c, const Mca& mca, const std::vector<std::size_t>& sizes);

// Reads an ncdx.bench/1 document (bad input -> 65).
core::Result<TrialResult> trial_from_json(std::string_view text, std::string_view source);
core::Result<std::vector<TrialRow>> trial_rows_from_json(std::string_view text, std::string_view source);

}  // namespace ncdx::measure
