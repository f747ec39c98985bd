#pragma once
// The algorithms NCCL's per-operation cost loop leaves out before comparing times (enqueue.cc
// getAlgoInfo / updateCollCostTable, v2.18.1-1 to v2.30.7-1), for a float sum: rules on top of
// the tuning tables, so an algorithm can have bandwidth in NCCL's table and still never be picked.
#include "model/cost/types.h"

namespace ncdx::model::cost {

struct PickContext {
  int code = 0;             // NCCL_VERSION_CODE
  int nodes = 1, nranks = 1, local_ranks = 1;
  bool collnet = false;     // CollNet enabled and float sum supported by the plugin
  bool nvls = false;        // NVLS supported (an NVLS graph with channels)
};

bool pick_skips(const PickContext& c, Collective coll, Algo a);

}  // namespace ncdx::model::cost
