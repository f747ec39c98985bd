#pragma once
// CollNet (SHARP) as NCCL's init leaves it for the tuning model and the pick: whether it is on,
// how many head GPUs per node it has, and whether CollNetChain may use them. Read from
// NVIDIA/nccl src/init.cc and src/transport/coll_net.cc, v2.18.1-1 to v2.30.7-1 (lines in
// collnet.cc).
#include "model/cost/cluster_spec.h"
#include "model/cost/graph.h"
#include "model/cost/types.h"

namespace ncdx::model::cost {

// The distinct head GPUs over a graph's channels (the first GPU of each channel's intra-node
// chain): one per channel up to the node's GPUs, as the search spreads channels over the GPUs
// next to the NICs. Graph results that NCCL logs do not carry the heads; this is our estimate.
int distinct_heads(const Graph& g, int gpus_per_node);

struct CollNetState {
  bool enabled = false;        // comm->collNetSupport (config.collnetEnable from 2.27)
  int heads = 0;               // comm->collNetHeadsNum as tuning.cc reads it (2.20: UniqueNum)
  bool chain_support = false;  // comm->collNetChainSupport (2.30.7+; always true before)
};

CollNetState collnet_state(const ClusterSpec& spec, const Graphs& graphs, const NcclVersion& version);

}  // namespace ncdx::model::cost
