#pragma once
// `ncdx tune --backend nccl`: per collective, the guided search (mpi_search.h) over NCCL_ALGO x
// NCCL_PROTO x channel counts (nccl_space.h), each trial a fresh `ncdx bench --backend nccl`
// process (under mpirun with np > 0); NCCL's example-tuner CSV with the choices (nccl_tuner_file.h)
// at the real nNodes/nRanks; an env file only if one global setting wins in every bucket of every
// collective tuned; then a validation in which NCCL's default, the tuned CSV loaded through
// libnccl-tuner-ncdx.so (NCCL_TUNER_PLUGIN, NCDX_TUNER_FILE) and (with `exhaustive`) the
// exhaustive search's CSV through the same plugin run interleaved, `validate_repeats` times each.
#include <cstddef>
#include <string>
#include <vector>

#include "core/result.h"
#include "measure/collective/mpirun_trial.h"
#include "model/tune/mpi_search.h"
#include "model/tune/mpi_tune.h"
#include "model/tune/nccl_tuner_file.h"

namespace ncdx::model::tune {

struct NcclTuneOptions {
  measure::MpirunSpec spec;  // backend "nccl"; np 0 = one process over spec.gpus GPUs
  std::vector<measure::Collective> colls{measure::Collective::allreduce};
  std::vector<std::size_t> sizes;
  std::vector<int> channels;  // the knob's values (empty: NCCL's own channel count only)
  SearchOptions search;
  bool exhaustive = true;
  int validate_repeats = 3;
  std::string csv_path = "nccl_tuner.conf";
  std::string env_path = "nccl.env";  // written only when one global setting wins everywhere
  std::string plugin;                      // libnccl-tuner-ncdx.so (find_tuner_plugin)
};

struct NcclTuneReport {
  std::vector<CollReport> colls;
  std::string csv_text, csv_path, env_text, env_path, env_note, plugin, library;
  int nranks = 0, nodes = 0, np = 0;
  bool exhaustive = false;
  std::vector<std::string> unavailable;  // "allreduce NVLS/Simple: why", pairs the probe dropped
  int probe_launches = 0;                // not trials: one launch per pair at the smallest and largest size
};

core::Result<NcclTuneReport> tune_nccl(const NcclTuneOptions& o);

// The CSV rules of one collective's search: a bucket's choice holds from the geometric midpoint
// below it to the one above it; below the smallest and above the largest size measured NCCL
// decides (no rule), and a bucket that keeps the default has no rule either (the plugin then leaves
// NCCL's cost table alone). Neighbouring buckets with the same choice become one rule. Channels:
// the knob, or -1 (NCCL's count).
std::vector<NcclTunerRule> nccl_rules(const SearchResult& r, measure::Collective c, int nnodes, int nranks);

// Where libnccl-tuner-ncdx.so is: `explicit_path` if given (not_found if it is not a file); else
// next to the ncdx binary, then ../lib (an install: bin/ncdx, lib/libnccl-tuner-ncdx.so), then
// ../../lib (the build tree: build/src/cli/ncdx, build/lib). not_found naming the places tried.
core::Result<std::string> find_tuner_plugin(const std::string& explicit_path, const std::string& exe = "");

}  // namespace ncdx::model::tune
