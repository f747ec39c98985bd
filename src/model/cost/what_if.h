#pragma once
// `--what-if` scenarios: the same question asked of a changed cluster or NCCL version.
//   tp            TP all-reduce inside one node (gpus ranks) vs across two nodes (2 x gpus)
//   dp=<P>:<B>    data-parallel gradient all-reduce of a <P>-parameter model (7B, 70e9) in
//                 buckets of <B> bytes (25M), bf16 gradients, buckets run back to back
//   lose-nic      one NIC per node fewer (NCCL's graph search re-run without it)
//   lose-nvlink   one NVLink per GPU fewer (the slowest GPU bounds every ring)
//   nccl=<ver>    another NCCL version's model (family tables and formulas)
#include <cstdint>
#include <string>
#include <vector>

#include "model/cost/predict.h"

namespace ncdx::model::cost {

struct WhatIfCase {
  std::string label;          // "baseline: TP=8 in one node"
  std::string spec;           // describe() of the cluster used
  std::string nccl_version;
  Collective coll = Collective::AllReduce;
  std::uint64_t bytes = 0;    // per op
  std::uint64_t ops = 1;      // ops summed into time_us (dp buckets)
  Prediction prediction;
  double time_us = 0;         // ops x per-op time
};

struct WhatIf {
  std::string scenario;       // as given
  std::vector<WhatIfCase> cases;   // first = baseline
  std::string summary;        // "TP=16 across nodes is 3.1x slower ..."
};

// bytes: the tensor size for tp/lose-*/nccl scenarios (default 64 MiB).
core::Result<WhatIf> what_if(const std::string& scenario, const ClusterSpec& spec, const NcclVersion& version,
                             std::uint64_t bytes, const Options& options = {});

// "64M", "1G", "4096", "25MB", "7B" (x1e9), "70e9" -> a count; nullopt when not a size.
std::optional<std::uint64_t> parse_size(std::string_view s, bool decimal_b_is_billion = false);

}  // namespace ncdx::model::cost
