#pragma once
// The nccl-tests benchmark loop (common.cu TimeTest/BenchTime @ a0b82b2), over any backend:
// warm-up at every power-of-two size, then for each size of the -b/-e/-f/-i sweep an
// out-of-place and an in-place pass of -n iterations, the time column being the wall time of the
// iterations divided by their number and averaged over processes (-a 1), then -c data checks.
// Beyond nccl-tests, every iteration is also timed on its own (the per-iteration median, p95
// and CV, taken over the slowest rank of each iteration as nccl-tests' -I does) and every rank's
// arrival time at each out-of-place iteration is recorded on a clock aligned to rank 0 (the
// arrival skew: which rank comes last to each collective, and by how much).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "measure/collective/backend.h"
#include "measure/collective/iter_stats.h"

namespace ncdx::measure {

struct BenchOptions {
  Collective coll = Collective::allreduce;
  DataType type = DataType::float32;
  RedOp op = RedOp::sum;
  int root = 0;
  // nccl-tests' defaults (common.cu): -b 32M -e 32M -i 1M -f 1 -n 20 -w 1 -c 1 -a 1.
  std::size_t min_bytes = 32u << 20, max_bytes = 32u << 20, step_bytes = 1u << 20, step_factor = 1;
  int iters = 20, warmup = 1, check = 1, average = 1;
  std::vector<std::size_t> sizes;  // when set, exactly these sizes (ncdx --sizes), not the sweep
};

struct PlaceResult {
  double time_us = 0;  // nccl-tests' time column
  double algbw_gbps = 0, busbw_gbps = 0;
  std::optional<long long> wrong;  // null without -c
  IterStats iter;                  // per-iteration times (us), the slowest rank of each iteration
};

struct ArrivalSkew {
  double median_us = 0, p95_us = 0, max_us = 0;  // last arrival minus first, per iteration
  int last_rank = 0;                             // the rank that came last most often
  double last_share = 0;                         // ... in this fraction of the iterations
  std::vector<double> mean_lateness_us;          // per rank: mean arrival minus first arrival
};

struct BenchRow {
  std::size_t bytes = 0, count = 0;  // nccl-tests' size and count columns
  PlaceResult out_of_place, in_place;
  std::optional<ArrivalSkew> skew;   // null with one rank
};

struct RankDesc {
  int rank = 0, pid = 0;
  std::string host;
  Engine::Device device;
};

struct BenchResult {
  BenchOptions options;
  std::string backend, library, launcher;
  int nranks = 0, nprocs = 0;
  std::vector<RankDesc> ranks;
  std::vector<BenchRow> rows;
  int out_of_bounds = 0;      // nccl-tests' "Out of bounds values": checks that found wrong data
  double avg_busbw_gbps = 0;  // nccl-tests' "Avg bus bandwidth": mean busbw over every pass
};

// Runs the sweep. Every process calls it; only process 0's result holds gathered rows.
core::Result<BenchResult> run_bench(Harness& h, Engine& e, const BenchOptions& o);

// Arrival skew from arrival[iter][rank] times (us, one clock).
ArrivalSkew arrival_skew(const std::vector<std::vector<double>>& arrival);

}  // namespace ncdx::measure
