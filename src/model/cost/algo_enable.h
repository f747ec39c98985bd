#pragma once
// NCCL_ALGO / NCCL_PROTO as each NCCL version reads them (NVIDIA/nccl src/graph/tuning.cc
// parseList, v2.14.3-1 to v2.30.7-1): a single list with '^' negation and unknown tokens ignored up
// to 2.23; per-function "func:list;..." entries and unknown tokens as errors from 2.24.
#include <array>
#include <string>

#include "core/result.h"
#include "model/cost/types.h"

namespace ncdx::model::cost {

struct EnableMatrix {
  std::array<std::array<bool, kNumAlgos>, kNumNcclFuncs> algo{};
  std::array<std::array<bool, kNumProtos>, kNumNcclFuncs> proto{};
  bool algo_set = false, proto_set = false;
};

// Which algorithm tokens exist in this version (NVLS/NVLSTree from 2.17, PAT from 2.23).
bool algo_known(Algo a, const NcclVersion& v);

// Whether NCCL computes a cost for (collective, algorithm) at all in this release, i.e. has the
// algorithm for that function: Broadcast/Reduce Ring only; AllGather/ReduceScatter Ring, NVLS,
// CollNetDirect (from 2.20: tuning.cc:169-170 @ v2.20.3-1; :168-169 @ v2.19.4-1 has Ring and NVLS
// only), PAT (Ring only before 2.19); AllReduce all but PAT (NVIDIA/nccl src/graph/tuning.cc:255-259
// @ v2.27.7-1). c must be one of the five NCCL functions.
bool algo_runs(Collective c, Algo a, const NcclVersion& v);
// Whether the protocol exists for the algorithm: NVLS, NVLSTree (tuning.cc:262 @ v2.27.7-1), PAT
// (:264) and CollNet (bandwidth 0 for LL/LL128, :286-287) run Simple only.
bool proto_runs(Algo a, Proto p);

// Errors (2.24+ only): usage, naming the token, as NCCL's WARN does.
core::Result<EnableMatrix> parse_enable(const std::string& algo, const std::string& proto, const NcclVersion& v);

}  // namespace ncdx::model::cost
