#pragma once
// ncdx's time model for the (algorithm, protocol, channels) NCCL picked: how NCCL's kernels
// and proxies really move the data, which NCCL's cost model (lat + bytes/bw, used only to pick)
// leaves out. Facts from NVIDIA/nccl @v2.27.7-1:
//  * calcCollChunking (src/enqueue.cc:1983-2097): per channel the data moves in chunks of
//    stepSize*chunkSteps bytes (stepSize = buffSize/NCCL_STEPS: Simple 4 MiB/8, LL 512 KiB/8
//    with half of each line data, LL128 4.6875 MiB/8 with 15/16 data; chunkSteps = 4 for Ring
//    Simple AllReduce/AllGather/ReduceScatter, else 1, src/include/collectives.h:17-26); NVLS and
//    NVLSTree use NCCL_NVLS_CHUNKSIZE (128 KiB) cut down at small sizes, Tree LL128 shrinks too;
//    a loop moves nChannels x nchunksPerLoop (Ring: nRanks; NVLS: heads; Tree: 1) chunks and
//    takes nstepsPerLoop steps (Ring AllReduce 2(n-1), AllGather/ReduceScatter n-1).
//  * The ring kernel shrinks the chunk when a loop is not full (src/device/all_reduce.h:35
//    `chunkCount = divUp(remCount, nranks)`), and prims_simple.h:193-194 cuts a chunk into
//    SlicePerChunk (= chunkSteps/sliceSteps = 2) slices of at least stepSize*StepPerSlice/32.
//  * A connection has NCCL_STEPS = 8 buffer slots (src/include/device.h:25); a slice holds
//    StepPerSlice of them (2 for Ring Simple AllReduce/AllGather/ReduceScatter, else 1), and the
//    sender waits for a free slot (prims_simple.h:115 `connStepCache + NCCL_STEPS < step +
//    StepPerSlice`): a slot comes back only after the receiver has the data and its credit has
//    travelled back, one round trip of the hop.
// So a connection moving `slices` slices with `window` = NCCL_STEPS/StepPerSlice of them in
// flight needs at least slices x (2 x hop latency) / window, whatever its bandwidth: at mid sizes
// the chunk shrinks to bytes/(n x channels) while the number of slices does not, and the round
// trips, not the link, set the time. The model's time is the larger of the two lower bounds
//     time = max(NCCL's latency term + its bandwidth term, slices x 2 x hop / window)
// (NCCL's latency term is already one pass of the pattern's hops, so the window bound is not
// added to it: that double-counted the chain and made every size < 1 MB worse, docs/MODEL.md).
// with the hop latency = NCCL's own per-step hardware latency (hwLat, tuning.cc) of the slowest
// hop of the pattern (NET across nodes) plus the net plugin's reported latency (latencyInter).
// CollNet and PAT are left at NCCL's own estimate (not modelled here).
#include <cstdint>

#include "model/cost/types.h"

namespace ncdx::model::cost {

struct PipelineInput {
  Collective coll = Collective::AllReduce;
  Algo algo = Algo::Ring;
  Proto proto = Proto::Simple;
  std::uint64_t bytes = 0;     // NCCL's nBytes (nccl-tests' size column)
  int nranks = 1;
  int nnodes = 1;
  int nchannels = 1;
  int nvls_heads = 1;          // NVLS/NVLSTree heads (channels[0].nvls.nHeads)
  double nccl_lat_us = 0;      // NCCL's latency term for the pick (comm->latencies)
  double nccl_bw_us = 0;       // NCCL's bandwidth term bytes / (1000 x bw)
  double hop_us = 0;           // per-step latency of the slowest hop (one way)
  double nvls_bw_gbps = 0;     // NCCL's NVLS AllReduce Simple bandwidth (NVLS chunk cap below 150)
};

struct PipelineTime {
  bool modelled = false;       // false: CollNet/PAT, time = NCCL's estimate
  std::int64_t chunk_bytes = 0;   // bytes per channel per step (after the kernel's shrink)
  std::int64_t loops = 0;         // loops per channel
  std::int64_t slices = 0;        // slices one connection moves in sequence
  int window = 0;                 // slices in flight per connection
  double window_us = 0;           // slices x 2 x hop / window
  double time_us = 0;             // max(NCCL's latency + bandwidth term, window_us)
};

PipelineTime pipeline_time(const PipelineInput& in);

}  // namespace ncdx::model::cost
