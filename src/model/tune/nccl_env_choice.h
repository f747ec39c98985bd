#pragma once
// The env file of `ncdx tune --model`: written only when one setting of NCCL_ALGO and/or
// NCCL_PROTO makes NCCL itself pick ncdx's choice (a rule's entry, else NCCL's own pick) in every
// bucket of every collective tuned - checked by replaying NCCL's choice under that setting with
// the cost model, not assumed. From NCCL 2.24.3 the setting is per function ("AllReduce:Tree",
// src/graph/tuning.cc parseList @ v2.24.3-1); before, a value applies to every collective, so the
// collectives not tuned must keep NCCL's pick too (a global NCCL_ALGO=Tree breaks AllGather on
// 2.24+, shared/reference/nccl_facts.md §1.3; before 2.19 the list filters AllReduce only).
#include <string>
#include <vector>

#include "model/cost/predict.h"
#include "model/tune/nccl_tuner_file.h"

namespace ncdx::model::tune {

struct ModelTuneBucket;

struct EnvChoice {
  std::vector<NcclEnvVar> vars;  // empty: no env file
  std::string why;               // one line
};

// nccl_options: NCCL's view (uncalibrated); a user's own NCCL_ALGO/NCCL_PROTO there means no env
// file (the setting would replace it). sizes: the bucket sizes, for the collectives not tuned.
EnvChoice choose_nccl_env(const std::vector<ModelTuneBucket>& buckets, const cost::ClusterSpec& spec,
                          const cost::NcclVersion& version, const cost::Options& nccl_options,
                          const std::vector<std::uint64_t>& sizes);

}  // namespace ncdx::model::tune
