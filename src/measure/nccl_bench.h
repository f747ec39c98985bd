#pragma once
// Local NCCL all-reduce over all GPUs of this node from one process (ncclCommInitAll through
// dlopen, vendor/nccl_api.h), float32 sum, out of place, at a few sizes. Reported like
// nccl-tests: algbw = bytes / time, busbw = algbw x 2(n-1)/n (nccl-tests v2.19.6 doc/PERFORMANCE.md:63), the
// time being the wall-clock mean of `iterations` launches after `warmup`, all streams
// synchronised. Only the largest size is judged against the topology's NCCL ring expectation
// (measure/expected.h: nccl_ring_busbw); smaller sizes are latency-bound and reported as INFO.
// UNVERIFIED ON HARDWARE: the development machine has no GPU.
#include <cstddef>
#include <vector>

#include "measure/measurements.h"
#include "probe/topo_matrix.h"

namespace ncdx::measure {

struct NcclBenchOptions {
  std::vector<std::size_t> sizes = {std::size_t{1} << 20, std::size_t{32} << 20, std::size_t{256} << 20};
  int warmup = 3;
  int iterations = 20;
};

std::vector<Measurement> measure_nccl_allreduce(const probe::TopoMatrix* topo, const NcclBenchOptions& opt = {});

// nccl-tests' all_reduce bus-bandwidth factor 2(n-1)/n.
double allreduce_busbw_factor(int n);

}  // namespace ncdx::measure
