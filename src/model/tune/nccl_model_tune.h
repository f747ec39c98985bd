#pragma once
// `ncdx tune --model`: the tuner table derived from the cost model alone, without GPUs (issue #15:
// "derives the table from the cost model, clearly labelled as predicted").
//
// Per collective and size bucket, at the spec's real (nNodes, nRanks):
//  * NCCL's pick: the argmin of NCCL's own estimate (Model::predict on the uncalibrated model,
//    NCCL_ALGO/NCCL_PROTO applied: NCCL does not know what a calibration measured);
//  * ncdx's choice: the entry with the least ncdx time (Model::predict_entry: docs/MODEL.md (b)'s
//    pipeline bound, with the calibration's scales) among the entries NCCL's table enables (an
//    entry NCCL disables - masked, unsupported, Tree for AllGather - is never a candidate);
//  * a rule when ncdx's time for its choice is at least `min_gain` below ncdx's time for NCCL's
//    pick at the bucket's size, and forcing the entry is not slower (by ncdx's times) than NCCL's
//    own pick at either edge of the bucket (a rule covers the whole bucket).
// Where can the two differ at all? ncdx's time is max(NCCL's estimate, the slot round-trip bound),
// so uncalibrated they rank entries differently only where that bound binds (mid sizes, several
// round trips per chunk); a calibration scales latency and bandwidth by different factors, which
// moves the size where NCCL's estimate switches from one entry to the next. Where neither
// happens, the table is empty and the report says so (nothing is invented).
// Channels: rules keep NCCL's count (-1). ncdx's time has no term that would favour another count
// (NCCL's bandwidth is per graph; fewer channels only add loops and round trips).
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "model/cost/predict.h"
#include "model/tune/nccl_tuner_file.h"

namespace ncdx::model::tune {

struct ModelTuneRequest {
  cost::ClusterSpec spec;
  cost::NcclVersion version;
  cost::Options options;                  // NCCL_ALGO/NCCL_PROTO, graphs; bw_scale/lat_scale = calibration (ncdx's times only)
  std::vector<cost::Collective> collectives;  // empty: the five NCCL collectives
  std::vector<std::uint64_t> sizes;       // bucket sizes (NCCL's nBytes = nccl-tests' size column)
  double min_gain = 0.05;                 // ncdx's time for its choice <= (1 - min_gain) x its time for NCCL's pick
};

struct ModelTuneBucket {
  cost::Collective coll = cost::Collective::AllReduce;
  std::uint64_t bytes = 0, min_bytes = 0, max_bytes = 0;  // the size and the bucket around it
  cost::Prediction nccl;   // NCCL's pick: nccl_time_us = NCCL's estimate, time_us = ncdx's time for it
  cost::Prediction best;   // ncdx's best enabled entry (== nccl's entry where they agree)
  double gain = 0;         // 1 - best.time_us / nccl.time_us
  double edge_gain = 0;    // the same at the bucket's worse edge (against NCCL's pick there)
  bool rule = false;
  std::string why;         // one line: why (no) rule
};

struct ModelTuneResult {
  std::vector<ModelTuneBucket> buckets;  // per collective, sizes ascending
  std::vector<NcclTunerRule> rules;      // adjacent buckets with the same entry merged
  std::vector<NcclEnvVar> env;           // empty: no single setting gives ncdx's choice everywhere
  std::string env_why;                   // one line: why there is (no) env file
};

// Sentence of the report and of the empty rules file when the model agrees with NCCL everywhere.
inline constexpr const char* kModelAgrees =
    "the model agrees with NCCL's own choice in every bucket: nothing to tune from the model; "
    "measure (--backend nccl) or calibrate (--calibrate)";

// Bad sizes -> usage; a spec or NCCL_ALGO the model rejects -> its status.
core::Result<ModelTuneResult> tune_from_model(const ModelTuneRequest& req);

// The bucket [min, max] around sizes[i]: from just above the geometric midpoint with the previous
// size to the midpoint with the next (the first starts at sizes[0], the last ends at its size).
std::pair<std::uint64_t, std::uint64_t> bucket_bounds(const std::vector<std::uint64_t>& sizes, std::size_t i);

}  // namespace ncdx::model::tune
