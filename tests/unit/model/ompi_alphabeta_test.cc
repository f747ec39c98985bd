// The α-β-γ model of Open MPI's coll_tuned algorithms: the closed forms of Thakur et al. 2005
// at powers of two, Open MPI's fallbacks, and the tree broadcast's concurrent-isend critical
// path. The check against real Open MPI runs is bench/alphabeta_netns.py (tests/model/).
#include <gtest/gtest.h>

#include "model/tune/ompi_alphabeta.h"
#include "model/tune/ompi_rules.h"

using namespace ncdx::model::tune;
using ncdx::measure::Collective;

namespace {

AlphaBetaCost cost(Collective c, const char* name, int p, std::size_t bytes) {
  auto r = ompi_alphabeta(c, name, p, bytes);
  EXPECT_TRUE(r.has_value()) << name << " p=" << p;
  return r.value_or(AlphaBetaCost{});
}

}  // namespace

TEST(OmpiAlphaBeta, AllreduceClosedForms) {
  const std::size_t n = 1 << 20;
  auto rd = cost(Collective::allreduce, "recursive_doubling", 8, n);
  EXPECT_DOUBLE_EQ(rd.alpha_steps, 3);
  EXPECT_DOUBLE_EQ(rd.beta_x_bytes, 3.0 * n);  // full-buffer exchanges above the eager limit
  EXPECT_DOUBLE_EQ(rd.beta_bytes, 0);
  EXPECT_DOUBLE_EQ(rd.gamma_bytes, 3.0 * n);
  auto ring = cost(Collective::allreduce, "ring", 8, n);
  EXPECT_DOUBLE_EQ(ring.alpha_steps, 14);
  EXPECT_DOUBLE_EQ(ring.beta_bytes, 2.0 * 7 / 8 * n);  // one-way: send right, receive left
  EXPECT_DOUBLE_EQ(ring.beta_x_bytes, 0);
  EXPECT_DOUBLE_EQ(ring.gamma_bytes, 7.0 / 8 * n);
  auto rab = cost(Collective::allreduce, "rabenseifner", 16, n);
  EXPECT_DOUBLE_EQ(rab.alpha_steps, 8);
  EXPECT_DOUBLE_EQ(rab.beta_x_bytes, 2.0 * 15 / 16 * n);  // n/2 … n/16 = 64 KiB: all rendezvous
  EXPECT_DOUBLE_EQ(rab.beta_bytes, 0);
  EXPECT_DOUBLE_EQ(rab.gamma_bytes, 15.0 / 16 * n);
  auto lin = cost(Collective::allreduce, "basic_linear", 4, n);
  EXPECT_DOUBLE_EQ(lin.alpha_steps, 4);
  EXPECT_DOUBLE_EQ(lin.beta_bytes, 6.0 * n);
  // Link: 100 us, 8 ns/B (1 Gbit/s), γ 0.5 ns/B → ring at 8 ranks, 1 MiB.
  Link l{100, 8e-3, 0.5e-3};
  EXPECT_NEAR(ring.time_us(l), 14 * 100 + 1.75 * n * 8e-3 + 0.875 * n * 0.5e-3, 1e-6);
}

TEST(OmpiAlphaBeta, NonPowerOfTwoFoldsIntoThePowerOfTwoCore) {
  // 6 ranks: a 4-rank core (2 rounds) plus the pre/post steps.
  auto rd = cost(Collective::allreduce, "recursive_doubling", 6, 1024);
  EXPECT_DOUBLE_EQ(rd.alpha_steps, 4);
  EXPECT_DOUBLE_EQ(rd.beta_bytes, 4.0 * 1024);
  EXPECT_DOUBLE_EQ(rd.gamma_bytes, 3.0 * 1024);
  // Rabenseifner's fold (coll_base_allreduce.c:1045-1090): exchange halves, send the reduced half
  // on, and the result back at the end: 3 messages, n/2 + n/2 + n, then the 4-rank core.
  auto rab = cost(Collective::allreduce, "rabenseifner", 6, 4096);
  EXPECT_DOUBLE_EQ(rab.alpha_steps, 7);
  EXPECT_DOUBLE_EQ(rab.beta_bytes, (2 + 1.5) * 4096);
  EXPECT_DOUBLE_EQ(rab.gamma_bytes, (0.5 + 0.75) * 4096);
  // At 1 MiB the fold's exchange (512 KiB) and the core's (512 K, 256 K, twice) are rendezvous;
  // the one-way sends (512 KiB on, 1 MiB back) stay at β.
  auto big = cost(Collective::allreduce, "rabenseifner", 6, 1 << 20);
  EXPECT_DOUBLE_EQ(big.beta_x_bytes, (0.5 + 1.5) * (1 << 20));
  EXPECT_DOUBLE_EQ(big.beta_bytes, 1.5 * (1 << 20));
}

TEST(OmpiAlphaBeta, OpenMpiFallbacks) {
  // ring with fewer elements than ranks runs recursive doubling (coll_base_allreduce.c:371).
  auto small = cost(Collective::allreduce, "ring", 16, 32);  // 8 floats < 16 ranks
  EXPECT_EQ(small.runs_as, "recursive_doubling");
  EXPECT_EQ(small.algorithm, "ring");
  EXPECT_DOUBLE_EQ(small.alpha_steps, 4);
  EXPECT_EQ(cost(Collective::allreduce, "ring", 16, 64).runs_as, "");
  EXPECT_EQ(cost(Collective::allreduce, "segmented_ring", 4, 1 << 20).runs_as, "ring");
  EXPECT_EQ(cost(Collective::allreduce, "rabenseifner", 8, 16).runs_as, "recursive_doubling");
  EXPECT_EQ(cost(Collective::allgather, "recursive_doubling", 6, 6000).runs_as, "bruck");
  EXPECT_EQ(cost(Collective::allgather, "neighbor", 5, 5000).runs_as, "ring");
  EXPECT_EQ(cost(Collective::broadcast, "scatter_allgather", 8, 16).runs_as, "basic_linear");
  EXPECT_FALSE(ompi_alphabeta(Collective::allgather, "two_proc", 4, 4096).has_value());
  EXPECT_FALSE(ompi_alphabeta(Collective::allreduce, "nonoverlapping", 4, 4096).has_value());
}

TEST(OmpiAlphaBeta, WhatAForcedConfigurationRunsAs) {
  // The segmented ring runs the ring when count < p * segcount (coll_base_allreduce.c:657 @
  // v4.1.4), segcount = segsize / 4 for floats: at 4 ranks and 64 KiB segments, below 256 KiB.
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, 64 << 10, 65536), "ring");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, (256 << 10) - 4, 65536), "ring");
  // From p segments: num_phases = count / (p * segcount), one more when the remainder is >= p and
  // more than half of p * segcount (:663-667). One phase sends exactly the ring's messages: the ring.
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, 256 << 10, 65536), "ring");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, 384 << 10, 65536), "ring");  // rem = half
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, (384 << 10) + 64, 65536), "segmented_ring");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, 512 << 10, 65536), "segmented_ring");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, 64 << 10, 8192), "segmented_ring");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, 32 << 10, 8192), "ring");
  // A segment at least the message (segcount stays count) and the default segment size: the ring.
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 2, 8192, 8192), "ring");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 4, 16 << 20, 0), "ring");
  // ... and the ring's own fallback below p elements.
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "segmented_ring", 16, 32, 0), "recursive_doubling");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "rabenseifner", 8, 16, 0), "recursive_doubling");
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "rabenseifner", 8, 4096, 0), "rabenseifner");
  // Not in the model: itself.
  EXPECT_EQ(ompi_runs_as(Collective::allreduce, "nonoverlapping", 4, 4096, 0), "nonoverlapping");
  EXPECT_EQ(ompi_runs_as(Collective::broadcast, "pipeline", 4, 1 << 20, 8192), "pipeline");
}

TEST(OmpiAlphaBeta, ASegmentCoveringTheMessageIsNoSegmentation) {
  // COLL_BASE_COMPUTED_SEGCOUNT (coll_base_functions.h:407 @ v4.1.4): segcount stays count unless
  // typelng <= segsize < typelng * count.
  EXPECT_EQ(ompi_effective_segsize(Collective::broadcast, "pipeline", 64 << 10, 65536), 0);
  EXPECT_EQ(ompi_effective_segsize(Collective::broadcast, "pipeline", 16 << 10, 65536), 0);
  EXPECT_EQ(ompi_effective_segsize(Collective::broadcast, "pipeline", (64 << 10) + 4, 65536), 65536);
  EXPECT_EQ(ompi_effective_segsize(Collective::broadcast, "binomial", 1 << 20, 8192), 8192);
  EXPECT_EQ(ompi_effective_segsize(Collective::reduce, "in-order_binary", 8192, 8192), 0);
  EXPECT_EQ(ompi_effective_segsize(Collective::reduce, "chain", 8192, 2), 0);  // below one element
  EXPECT_EQ(ompi_effective_segsize(Collective::broadcast, "chain", 8192, 0), 0);
  // The split binary tree halves the message first: its segment size is kept.
  EXPECT_EQ(ompi_effective_segsize(Collective::broadcast, "split_binary_tree", 8192, 65536), 65536);
  // The segmented ring's identities are ompi_runs_as's.
  EXPECT_EQ(ompi_effective_segsize(Collective::allreduce, "segmented_ring", 8192, 65536), 65536);
}

TEST(OmpiAlphaBeta, BinomialBroadcastSharesTheSendersLink) {
  // p = 2^L: L hops, and the first-child chain carries L + (L-1) + ... + 1 buffers.
  for (int L = 1; L <= 5; ++L) {
    auto b = cost(Collective::broadcast, "binomial", 1 << L, 1000);
    EXPECT_DOUBLE_EQ(b.alpha_steps, L);
    EXPECT_DOUBLE_EQ(b.beta_bytes, 1000.0 * L * (L + 1) / 2);
  }
  // 6 ranks (bmtree: 0→{1,2,4}, 1→{3,5}): 0→1→3 = 3 + 2 buffers.
  auto b6 = cost(Collective::broadcast, "binomial", 6, 1000);
  EXPECT_DOUBLE_EQ(b6.beta_bytes, 5000);
  EXPECT_DOUBLE_EQ(b6.alpha_steps, 2);
  auto lin = cost(Collective::broadcast, "basic_linear", 8, 1000);
  EXPECT_DOUBLE_EQ(lin.beta_bytes, 7000);
  EXPECT_DOUBLE_EQ(lin.alpha_steps, 1);
}

TEST(OmpiAlphaBeta, AllgatherBlocks) {
  const std::size_t n = 8 << 10;  // the gathered buffer
  EXPECT_DOUBLE_EQ(cost(Collective::allgather, "ring", 8, n).alpha_steps, 7);
  EXPECT_DOUBLE_EQ(cost(Collective::allgather, "ring", 8, n).beta_bytes, 7.0 / 8 * n);
  EXPECT_DOUBLE_EQ(cost(Collective::allgather, "bruck", 6, n).alpha_steps, 3);
  EXPECT_DOUBLE_EQ(cost(Collective::allgather, "neighbor", 8, n).alpha_steps, 4);
  EXPECT_DOUBLE_EQ(cost(Collective::allgather, "two_proc", 2, n).beta_bytes, n / 2.0);
}

TEST(OmpiAlphaBeta, ExchangeStepsAboveTheEagerLimitPayBetaX) {
  // The ring at 2 ranks sends to and receives from the same neighbour: an exchange; its blocks
  // (n/2) cross the 64 KiB eager limit between 64 KiB and 256 KiB buffers.
  EXPECT_DOUBLE_EQ(cost(Collective::allreduce, "ring", 2, 256 << 10).beta_x_bytes, 256 << 10);
  EXPECT_DOUBLE_EQ(cost(Collective::allreduce, "ring", 2, 64 << 10).beta_x_bytes, 0);
  EXPECT_DOUBLE_EQ(cost(Collective::allreduce, "ring", 2, 64 << 10).beta_bytes, 64 << 10);
  EXPECT_DOUBLE_EQ(cost(Collective::allreduce, "ring", 4, 1 << 20).beta_x_bytes, 0);
  // Eager exchanges run at the one-way rate.
  auto rd = cost(Collective::allreduce, "recursive_doubling", 4, 32 << 10);
  EXPECT_DOUBLE_EQ(rd.beta_bytes, 2.0 * (32 << 10));
  EXPECT_DOUBLE_EQ(rd.beta_x_bytes, 0);
  EXPECT_DOUBLE_EQ(cost(Collective::allreduce, "recursive_doubling", 4, 64 << 10).beta_x_bytes, 2.0 * (64 << 10));
  // Bruck at 4 ranks: distance 1 is a one-way shift of one block, distance 2 = p/2 an exchange
  // of two blocks with one peer.
  const std::size_t n = 4 << 20;
  auto bruck = cost(Collective::allgather, "bruck", 4, n);
  EXPECT_DOUBLE_EQ(bruck.beta_bytes, n / 4.0);
  EXPECT_DOUBLE_EQ(bruck.beta_x_bytes, n / 2.0);
  // Scatter-allgather broadcast: a one-way binomial scatter, then recursive-doubling exchanges
  // of n/8, n/4, n/2 (64, 128, 256 KiB at n = 512 KiB: all rendezvous; at 256 KiB the first is eager).
  auto sag = cost(Collective::broadcast, "scatter_allgather", 8, 512 << 10);
  EXPECT_DOUBLE_EQ(sag.beta_bytes, 7.0 / 8 * (512 << 10));
  EXPECT_DOUBLE_EQ(sag.beta_x_bytes, (64 + 128 + 256) * 1024.0);
  auto sag2 = cost(Collective::broadcast, "scatter_allgather", 8, 256 << 10);
  EXPECT_DOUBLE_EQ(sag2.beta_bytes, 7.0 / 8 * (256 << 10) + (32 << 10));
  EXPECT_DOUBLE_EQ(sag2.beta_x_bytes, (64 + 128) * 1024.0);
  // Trees and linear broadcasts are one-way throughout.
  EXPECT_DOUBLE_EQ(cost(Collective::broadcast, "binomial", 8, 1 << 20).beta_x_bytes, 0);
  // The exchange bytes pay β_x; an unset β_x is β (an ideal full-duplex link).
  Link l{50, 0.2, 0, 0.4};
  EXPECT_DOUBLE_EQ(bruck.time_us(l), 2 * 50 + n / 4.0 * 0.2 + n / 2.0 * 0.4);
  l.beta_x_us = 0;
  EXPECT_DOUBLE_EQ(bruck.time_us(l), 2 * 50 + 3.0 * n / 4 * 0.2);
}

TEST(OmpiAlphaBeta, EveryModelledAlgorithmIsInTheCollTunedTable) {
  auto all = ompi_algorithms();
  ASSERT_TRUE(all.ok());
  for (Collective c : {Collective::allreduce, Collective::broadcast, Collective::allgather}) {
    auto names = ompi_alphabeta_algorithms(c);
    EXPECT_FALSE(names.empty());
    for (const auto& n : names) {
      bool found = false;
      for (const auto& a : *all) found |= a.coll == c && a.name == n;
      EXPECT_TRUE(found) << n;
    }
  }
}
