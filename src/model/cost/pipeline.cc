// The pipeline time of the pick (pipeline.h): NCCL's chunking, then the slot window per connection.
#include "model/cost/pipeline.h"

#include <algorithm>
#include <cmath>

namespace ncdx::model::cost {
namespace {

constexpr std::int64_t kSteps = 8;  // NCCL_STEPS (src/include/device.h:25)
// Per-protocol step sizes in data bytes (src/init.cc:618-620 DEFAULT_*BUFFSIZE / NCCL_STEPS):
// Simple 4 MiB / 8; LL 8 lines x 512 threads x 8 steps x 16 B / 8, half of each line data
// (enqueue.cc:1989); LL128 120 x 640 x 8 x 8 B / 8, 15 of 16 words data (enqueue.cc:1990).
constexpr std::int64_t kStepSimple = (4 << 20) / kSteps;
constexpr std::int64_t kStepLL = 8 * 512 * 8 * 16 / kSteps;
constexpr std::int64_t kStepLL128 = 120 * 640 * 8 * 8 / kSteps;

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

int log2i(std::int64_t x) {
  int l = -1;
  while (x > 0) { x >>= 1; ++l; }
  return l;
}

std::int64_t step_data(Proto p) {
  if (p == Proto::LL) return kStepLL / 2;
  if (p == Proto::LL128) return kStepLL128 / 16 * 15;
  return kStepSimple;
}

bool ring_twice_or_ring(Collective c) {
  return c == Collective::AllReduce || c == Collective::AllGather || c == Collective::ReduceScatter;
}

// NVLS / NVLSTree chunk (enqueue.cc:2003-2030): NCCL_NVLS_CHUNKSIZE 128 KiB, cut at small sizes
// relative to channels x heads.
std::int64_t nvls_chunk(const PipelineInput& in) {
  const std::int64_t ops = static_cast<std::int64_t>(in.nchannels) * std::max(1, in.nvls_heads);
  const auto bytes = static_cast<std::int64_t>(in.bytes);
  std::int64_t chunk = 128 * 1024;
  if (in.algo == Algo::Nvls) {
    if (in.nnodes > 1 && in.nvls_bw_gbps < 150) chunk = 32768;
    if (bytes < 64 * ops * chunk && chunk > 65536) chunk = 65536;
    if (bytes < 8 * ops * chunk && chunk > 32768) chunk = 32768;
    if (bytes < 2 * ops * chunk && chunk > 16384) chunk = 16384;
  } else {
    if (in.nnodes >= 4) chunk = std::min<std::int64_t>(chunk, 65536);  // NCCL_NVLSTREE_MAX_CHUNKSIZE -2
    if (bytes < 16 * ops * chunk && chunk > 131072) chunk = 131072;
    if (bytes < 4 * ops * chunk && chunk > 65536) chunk = 65536;
    if (bytes < 1 * ops * chunk && chunk > 32768) chunk = 32768;
  }
  return chunk;
}

// Tree LL128 chunk (enqueue.cc:2031-2039): shrunk while few chunks per channel.
std::int64_t tree_ll128_chunk(const PipelineInput& in, std::int64_t chunk) {
  const double ppn = static_cast<double>(in.nranks) / std::max(1, in.nnodes);
  const double nsteps = 1 + log2i(in.nnodes) + 0.1 * ppn;
  const auto per_ch = [&] { return static_cast<std::int64_t>(in.bytes) / (in.nchannels * chunk); };
  while (per_ch() < nsteps * 64 / ppn && chunk > 131072) chunk /= 2;
  while (per_ch() < nsteps * 16 / ppn && chunk > 32768) chunk /= 2;
  return chunk;
}

}  // namespace

PipelineTime pipeline_time(const PipelineInput& in) {
  PipelineTime t;
  t.time_us = in.nccl_lat_us + in.nccl_bw_us;
  const bool collnet = in.algo == Algo::CollNetDirect || in.algo == Algo::CollNetChain;
  if (collnet || in.algo == Algo::Pat || in.bytes == 0 || in.nchannels < 1 || in.nranks < 2) return t;
  t.modelled = true;
  const auto bytes = static_cast<std::int64_t>(in.bytes);
  const std::int64_t per_channel = ceil_div(bytes, in.nchannels);
  const bool ring_simple = in.algo == Algo::Ring && in.proto == Proto::Simple;
  const int step_per_slice = ring_simple && ring_twice_or_ring(in.coll) ? 2 : 1;  // *_SLICESTEPS
  t.window = static_cast<int>(kSteps / step_per_slice);
  std::int64_t slices = 0;
  if (in.algo == Algo::Ring && ring_twice_or_ring(in.coll)) {
    // ncclPatternRing(Twice): a loop is nRanks chunks per channel, 2(n-1) or n-1 steps.
    const std::int64_t max_chunk = step_data(in.proto) * (ring_simple ? 4 : 1);  // *_CHUNKSTEPS
    const std::int64_t steps = in.coll == Collective::AllReduce ? 2 * (in.nranks - 1) : in.nranks - 1;
    const std::int64_t loop = max_chunk * in.nranks;
    t.loops = ceil_div(per_channel, loop);
    const std::int64_t last = ceil_div(per_channel - (t.loops - 1) * loop, in.nranks);
    t.chunk_bytes = t.loops > 1 ? max_chunk : last;
    // prims_simple.h:193-194: SlicePerChunk 2 slices, each at least stepSize*StepPerSlice/32.
    auto slices_of = [&](std::int64_t chunk) -> std::int64_t {
      if (!ring_simple) return 1;
      const std::int64_t min_slice = kStepSimple * step_per_slice / 32;
      return std::min<std::int64_t>(2, ceil_div(chunk, std::max(ceil_div(chunk, 2), min_slice)));
    };
    slices = steps * ((t.loops - 1) * slices_of(max_chunk) + slices_of(last));
  } else {
    // Pipelines (Ring Broadcast/Reduce), Tree, NVLS, NVLSTree: one chunk per channel (per head)
    // per loop, one step each way per connection (chunkSteps 1, enqueue.cc:1986).
    std::int64_t chunk = step_data(in.proto);
    std::int64_t per_loop = chunk;
    if (in.algo == Algo::Nvls || in.algo == Algo::NvlsTree) {
      chunk = nvls_chunk(in);
      per_loop = chunk * std::max(1, in.nvls_heads);
    } else if (in.algo == Algo::Tree && in.proto == Proto::LL128) {
      chunk = tree_ll128_chunk(in, chunk);
      per_loop = chunk;
    }
    t.loops = ceil_div(per_channel, per_loop);
    t.chunk_bytes = std::min(chunk, per_channel);
    slices = t.loops;
  }
  t.slices = slices;
  t.window_us = static_cast<double>(slices) * 2.0 * in.hop_us / t.window;
  // Two lower bounds: NCCL's one pass (its latency term already holds the chain of hops of one
  // loop) plus the bytes at the links' rate, and the slot round trips of the busiest connection.
  t.time_us = std::max(in.nccl_lat_us + in.nccl_bw_us, t.window_us);
  return t;
}

}  // namespace ncdx::model::cost
