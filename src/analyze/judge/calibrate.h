#pragma once
// `ncdx model --calibrate FILE`: fit the cost model to a measured sweep of the same cluster
// (nccl-tests or ncdx bench output). Two factors per link class (intra-node when the sweep ran
// on one node, inter-node otherwise): the bandwidth scale is the median of measured / predicted
// busbw over the bandwidth-bound sizes, the latency scale the median of measured / predicted
// time over the latency-bound sizes (predicted with the bandwidth scale applied).
#include <string>
#include <vector>

#include "analyze/judge/nccl_tests_parse.h"
#include "core/result.h"
#include "model/cost/predict.h"

namespace ncdx::analyze::judge {

struct Calibration {
  double bw_scale = 1.0, lat_scale = 1.0;
  int bw_points = 0, lat_points = 0;
  std::string link_class;   // "intra-node" or "inter-node"
};

core::Result<Calibration> calibrate(const std::vector<NcclTestsRun>& runs, const model::cost::ClusterSpec& spec,
                                    const model::cost::NcclVersion& version);

}  // namespace ncdx::analyze::judge
