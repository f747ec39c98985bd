#pragma once
// What `ncdx tune --backend nccl` chooses among: NCCL_ALGO x NCCL_PROTO pairs that NCCL has for
// the collective in this version (cost/algo_enable.h: algo_known, algo_runs, proto_runs), each
// with the channel count as the secondary knob, and how a configuration is forced in a trial.
//  - the pair: NCCL_ALGO=<algo> NCCL_PROTO=<proto>, the plain (global) form every version reads:
//    a trial runs one collective only, so the per-function form of 2.24+ is not needed, and
//    2.14-2.23 would ignore its prefix token (src/graph/tuning.cc parseList);
//  - the channel count k: NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS = k, the communicator's count.
//    NCCL still shrinks the count per operation for small sizes (enqueue.cc:1849-1853
//    @ v2.27.7-1), while the tuner plugin's per-operation count (the CSV's channels column,
//    enqueue.cc:1936) is capped by the communicator's (enqueue.cc:534-550): the validation, which
//    runs the plugin, shows what the plugin really reproduces;
//  - NCCL_BUFFSIZE is not a knob: it is per communicator (every collective, every size), so the
//    plugin cannot carry it per bucket, and an env file of it would be the global folklore issue
//    #15 argues against.
// A pair NCCL cannot run on this machine (NVLS without NVSwitch, CollNet without its plugin, PAT
// with several ranks per node) fails its trial with "no algorithm/protocol available"
// (enqueue.cc:1825 @ v2.27.7-1): nccl_tune.cc probes each pair once and drops those that fail.
#include <optional>
#include <string>
#include <vector>

#include "measure/collective/collective.h"
#include "measure/collective/mpirun_trial.h"
#include "model/tune/mpi_search.h"
#include "model/cost/types.h"
#include "model/tune/search_space.h"

namespace ncdx::model::tune {

struct NcclPair {
  cost::Algo algo = cost::Algo::Ring;
  cost::Proto proto = cost::Proto::Simple;
};

// Config::alg of a pair: 1 + algo x 3 + proto (NCCL's index orders); nullopt for 0 or out of range.
int nccl_id(const NcclPair& p);
std::optional<NcclPair> nccl_pair(int id);

// The pairs NCCL has for `c` (one of its five functions) in `v`, less those it cannot run at this
// communicator shape: PAT needs one rank per node (ncclPatEnable, tuning.cc), NVLSTree several
// nodes (model.cc enable_rules). `channels`: the knob values (empty: NCCL's own count only).
// alltoall/sendrecv are NCCL point-to-point, untouched by NCCL_ALGO: usage error.
core::Result<SearchSpace> nccl_space(measure::Collective c, const cost::NcclVersion& v, int nranks, int nodes,
                                     const std::vector<int>& channels);

// "default", "Ring/LL128", "Ring/LL128/8ch".
std::string nccl_label(const Config& c);

// The variables every NCCL trial controls: unset for the default, so the caller's own settings do
// not leak into NCCL's decision.
const std::vector<std::string>& nccl_controlled_env();
measure::TrialEnv nccl_env(const Config& c);

// The decision of the NCCL search: `o` with fastest_default on and min_gain at least
// worth_confirming (3 %: a smaller gain leaves the default within issue #15's 97 % anyway). With
// 9-10 pairs x channel counts that tie, the plain rule picked a pair on noise in 20 of 350 buckets
// of a flat surface (3 % Gaussian noise, 10 % of trials 3x slower); this one in 2
// (NcclSearch.FlatSurface*, docs/TUNE.md).
SearchOptions nccl_search_options(SearchOptions o);

// "NCCL 2.27.7 (path)" (ncdx bench's library field) -> 2.27.7.
std::optional<cost::NcclVersion> nccl_version_of(const std::string& library);

}  // namespace ncdx::model::tune
