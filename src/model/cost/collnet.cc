#include "model/cost/collnet.h"

#include <algorithm>

namespace ncdx::model::cost {

int distinct_heads(const Graph& g, int gpus_per_node) { return std::max(0, std::min(g.nchannels, gpus_per_node)); }

CollNetState collnet_state(const ClusterSpec& spec, const Graphs& graphs, const NcclVersion& version) {
  CollNetState s;
  const Graph& direct = graphs[static_cast<int>(Algo::CollNetDirect)];
  const Graph& chain = graphs[static_cast<int>(Algo::CollNetChain)];
  const Graph& nvls = graphs[static_cast<int>(Algo::Nvls)];
  // init.cc drops CollNet when the chain graph found no channel and below
  // NCCL_COLLNET_NODE_THRESHOLD (2) nodes (v2.18.6-1 :1003,1015-1019; v2.27.7-1 :1017,1028-1032).
  s.enabled = spec.collnet && spec.nodes >= 2 && chain.nchannels > 0;
  if (!s.enabled) return s;
  const int code = version.code();
  // Heads (set before ncclTopoTuneModel): the CollNetDirect graph's distinct heads (2.20's
  // tuning.cc reads collNetHeadsUniqueNum, tuning.cc:193 @v2.20.3-1; collNetHeadsNum is the
  // distinct count from 2.21, init.cc:642 @v2.21.5-1, coll_net.cc:1501 @v2.27.7-1); from 2.28
  // the NVLS heads, one per NVLS channel, when NVLS is supported (coll_net.cc:1492-1509 @v2.28.9-1).
  s.heads = code >= 22800 && nvls.nchannels > 0 ? nvls.nchannels : distinct_heads(direct, spec.gpus_per_node);
  // 2.30.7: CollNetChain only when the chain's heads are CollNet heads (coll_net.cc:1676-1689,
  // 1730 @v2.30.7-1). Both head sets are the GPUs next to the NICs, so the chain's set is inside
  // the other's exactly when it is not larger.
  s.chain_support = code < 23007 || distinct_heads(chain, spec.gpus_per_node) <= s.heads;
  return s;
}

}  // namespace ncdx::model::cost
