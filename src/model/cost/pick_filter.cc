#include "model/cost/pick_filter.h"

namespace ncdx::model::cost {

bool pick_skips(const PickContext& c, Collective coll, Algo a) {
  const bool agrs = coll == Collective::AllGather || coll == Collective::ReduceScatter;
  constexpr int kMaxDirectArity = 7;  // NCCL_MAX_DIRECT_ARITY (device.h)
  const int max_nvls_arity = c.code >= 22500 ? 32 : 8;  // NCCL_MAX_NVLS_ARITY (device.h @v2.25.1-1, @v2.19.4-1)
  // CollNet needs collNetSupport (v2.18.6-1 :1166, v2.27.7-1 :1765); CollNetDirect at most 8
  // local ranks from 2.23 (v2.23.4-1 :1793), CollNetChain too from 2.28 (v2.28.9-1 :1801).
  if ((a == Algo::CollNetDirect || a == Algo::CollNetChain) && !c.collnet) return true;
  if (a == Algo::CollNetDirect && c.code >= 22300 && c.local_ranks > kMaxDirectArity + 1) return true;
  if (a == Algo::CollNetChain && c.code >= 22803 && c.local_ranks > kMaxDirectArity + 1) return true;
  if ((a == Algo::Nvls || a == Algo::NvlsTree) && !c.nvls) return true;
  // NVLS across nodes runs over CollNet (v2.18.6-1 :1168, v2.27.7-1 :1769).
  if (a == Algo::Nvls && !c.collnet && c.nodes > 1) return true;
  // NVLS AllGather/ReduceScatter: single node only in 2.19-2.24 (v2.19.4-1 :1187, v2.23.4-1
  // :1797) and 2.25-2.26, there also at most NCCL_MAX_NVLS_ARITY ranks (v2.26.6-1 :1689); from
  // 2.27 tuning.cc decides, and the loop drops NVLS/NVLSTree but AllReduce beyond
  // NCCL_MAX_NVLS_ARITY local ranks (v2.27.7-1 :1768).
  if (a == Algo::Nvls && agrs && c.code >= 21900 && c.code < 22500 && c.nodes > 1) return true;
  if (a == Algo::Nvls && agrs && c.code >= 22500 && c.code < 22700 && (c.nodes > 1 || c.nranks > max_nvls_arity)) return true;
  if ((a == Algo::Nvls || a == Algo::NvlsTree) && c.code >= 22700 && coll != Collective::AllReduce &&
      c.local_ranks > max_nvls_arity)
    return true;
  return false;
}

}  // namespace ncdx::model::cost
