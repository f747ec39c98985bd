#pragma once
// Our estimate of NCCL's topology search (src/graph/search.cc ncclTopoCompute) for a regular
// cluster: one graph per algorithm with channels, per-channel bandwidths and path types. It
// replays the search's speed arrays, its pass 1 (highest speed that fits, then lower speeds
// while they are within 0.49 of the best), ncclTopoDupChannels and pass 2 (raise the speed at
// the found channel count), with link capacities from the spec instead of a probed topology.
// Where NCCL's log has `Pattern ...` lines, those replace this estimate (nccl_log_inputs.h).
#include <string>
#include <vector>

#include "knowledge/nccl_tuning.h"
#include "model/cost/cluster_spec.h"
#include "model/cost/graph.h"

namespace ncdx::model::cost {

struct Capacities {          // NCCL's planning bandwidths (GB/s), per GPU
  double intra_total = 0;    // GPU's links to its peers (NVLink total, or PCIe)
  double intra_path = 0;     // one GPU-to-GPU path
  PathType type_intra = PathType::SYS;
  double net_path = 0;       // GPU -> NIC path (min of PCIe and the NIC)
  int nics = 0;              // NICs per node
  PathType type_inter = PathType::NET;
};

Capacities capacities(const ClusterSpec& spec, double nvlink_gbps_per_link);

// `version_code` (NCCL_VERSION_CODE) picks the speed arrays of that release inside the family.
Graphs estimate_graphs(const ClusterSpec& spec, const Capacities& cap, const knowledge::NcclTuningFamily& tables,
                       int version_code, std::vector<std::string>& notes);

}  // namespace ncdx::model::cost
