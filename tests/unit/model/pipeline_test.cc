// The pipeline time (model/cost/pipeline.h): NCCL's chunking and the slot window, by hand.
#include <gtest/gtest.h>

#include "model/cost/pipeline.h"

using namespace ncdx::model::cost;

namespace {

PipelineInput ring_ar(std::uint64_t bytes) {
  PipelineInput in;
  in.coll = Collective::AllReduce;
  in.algo = Algo::Ring;
  in.proto = Proto::Simple;
  in.bytes = bytes;
  in.nranks = 16;
  in.nnodes = 2;
  in.nchannels = 8;
  in.nccl_lat_us = 100;
  in.nccl_bw_us = 50;
  in.hop_us = 14;
  return in;
}

}  // namespace

TEST(Pipeline, RingChunkShrinksAndRoundTripsBound) {
  // 1 MiB over 8 channels x 16 ranks: one loop (2 MiB chunks x 16 = 32 MiB per channel), the
  // chunk shrinks to 128 KiB / 16 = 8 KiB, one slice per step (below the 32 KiB minimum
  // slice), 2(n-1) = 30 slices, 4 in flight: 30 x 2 x 14 / 4 = 210 us > NCCL's 100 + 50.
  auto t = pipeline_time(ring_ar(1 << 20));
  ASSERT_TRUE(t.modelled);
  EXPECT_EQ(t.loops, 1);
  EXPECT_EQ(t.chunk_bytes, 8192);
  EXPECT_EQ(t.slices, 30);
  EXPECT_EQ(t.window, 4);
  EXPECT_DOUBLE_EQ(t.window_us, 210.0);
  EXPECT_DOUBLE_EQ(t.time_us, 210.0);  // max(100 + 50, 210)
}

TEST(Pipeline, RingFullLoopsUseTwoSlicesPerChunk) {
  // 1 GiB: 128 MiB per channel = 4 loops of 2 MiB chunks, 2 slices each: 30 x 4 x 2 = 240.
  auto in = ring_ar(1ull << 30);
  in.nccl_bw_us = 10000;
  auto t = pipeline_time(in);
  EXPECT_EQ(t.loops, 4);
  EXPECT_EQ(t.chunk_bytes, 2 << 20);
  EXPECT_EQ(t.slices, 240);
  EXPECT_DOUBLE_EQ(t.time_us, 100.0 + 10000.0);  // bandwidth-bound: the window is hidden
}

TEST(Pipeline, TreeAndNvlsTreeChunks) {
  PipelineInput tree = ring_ar(64 << 20);
  tree.algo = Algo::Tree;
  tree.nchannels = 16;
  auto t = pipeline_time(tree);
  EXPECT_EQ(t.window, 8);
  EXPECT_EQ(t.chunk_bytes, 512 << 10);  // Simple stepSize, chunkSteps 1
  EXPECT_EQ(t.loops, 8);                // 4 MiB per channel
  EXPECT_EQ(t.slices, 8);

  PipelineInput nt = tree;
  nt.algo = Algo::NvlsTree;
  nt.bytes = 4 << 20;
  nt.nvls_heads = 8;
  auto n = pipeline_time(nt);
  EXPECT_EQ(n.chunk_bytes, 32768);  // 128 KiB cut to 64 KiB (< 4 x 128 ops) then 32 KiB (< 1 x)
  EXPECT_EQ(n.loops, 1);
}

TEST(Pipeline, CollNetAndPatKeepNcclsEstimate) {
  auto in = ring_ar(1 << 20);
  in.algo = Algo::CollNetDirect;
  auto t = pipeline_time(in);
  EXPECT_FALSE(t.modelled);
  EXPECT_DOUBLE_EQ(t.time_us, 150.0);
  in.algo = Algo::Pat;
  EXPECT_FALSE(pipeline_time(in).modelled);
}
