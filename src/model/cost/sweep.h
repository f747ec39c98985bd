#pragma once
// `ncdx model` as an analysis: predictions for a set of collectives x sizes on one cluster and
// NCCL version, with NCCL's cost table per row when asked (--explain). Plain data for report/.
#include <cstdint>
#include <string>
#include <vector>

#include "model/cost/predict.h"

namespace ncdx::model::cost {

struct SweepRequest {
  ClusterSpec spec;
  NcclVersion version;
  Options options;
  std::vector<Collective> collectives;   // empty = the five NCCL collectives
  std::vector<std::uint64_t> sizes;      // empty = nccl-tests' default 8 B .. 128 MB x2 (25 sizes)
  bool explain = false;
};

struct SweepRow {
  Prediction prediction;
  std::vector<CostCell> cost;            // with explain
};

struct SweepResult {
  ClusterSpec spec;
  NcclVersion version;
  Graphs graphs;
  int comm_channels = 0;
  std::vector<SweepRow> rows;
  std::vector<std::string> notes;
};

std::vector<std::uint64_t> default_sizes();   // 8, 16, ..., 128 MiB
core::Result<SweepResult> run_sweep(const SweepRequest& req);

}  // namespace ncdx::model::cost
