// The Open MPI tuning search and its rules file, driven by a synthetic cost surface (a seeded
// noisy alpha-beta model per algorithm) so the decisions can be checked exactly; the real
// Open MPI runs are tests/bench/mpi_bench_check.py and bench/tune_mpi.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "measure/collective/mpirun_trial.h"
#include "model/tune/mpi_search.h"
#include "model/tune/ompi_fixed_decision.h"
#include "model/tune/ompi_rules.h"
#include "model/tune/rank_test.h"
#include "mpi_surfaces.h"

using namespace ncdx::model::tune;
using namespace ncdx::model::tune::testing;
using ncdx::measure::Collective;

namespace {

std::vector<std::size_t> sizes() {
  std::vector<std::size_t> v;
  for (std::size_t s = 8; s <= (16u << 20); s *= 4) v.push_back(s);
  return v;
}

}  // namespace

TEST(OmpiAlgorithms, TableMatchesOpenMpi) {
  auto a = allreduce_algs(4);
  ASSERT_EQ(a.size(), 6u);  // basic_linear .. rabenseifner (coll_tuned_allreduce_decision.c @ v4.1.4)
  EXPECT_EQ(a[4].name, "segmented_ring");
  EXPECT_TRUE(a[4].segmented);
  EXPECT_EQ(a[0].colltype, 2);
  auto all = ompi_algorithms();
  EXPECT_EQ(ompi_algorithms_for(*all, Collective::allgather, 4).size(), 5u);  // two_proc only at 2 ranks
  EXPECT_EQ(ompi_algorithms_for(*all, Collective::allgather, 2).size(), 6u);
  EXPECT_EQ(ompi_algorithms_for(*all, Collective::reducescatter, 4).front().ompi_coll, "reduce_scatter_block");
}

TEST(MpiSearch, FindsTheExhaustiveBestWithAQuarterOfTheTrials) {
  auto algs = allreduce_algs(4);
  SearchOptions o;
  double worst = 1, worst_share = 0;
  // Several noise draws, so the result is the search's, not one lucky seed's.
  for (unsigned seed = 1; seed <= 20; ++seed) {
    long launches = 0;
    auto g = guided_search(algs, sizes(), synthetic(0.01, &launches, seed), o);
    ASSERT_TRUE(g.ok()) << g.status().message();
    auto e = exhaustive_search(algs, sizes(), synthetic(0.01, &launches, seed + 1000), o);
    ASSERT_TRUE(e.ok());
    ASSERT_EQ(g->buckets.size(), e->buckets.size());
    for (std::size_t i = 0; i < g->buckets.size(); ++i) {
      const auto& b = g->buckets[i];
      double ours = model_us(b.chosen, b.bytes), best = model_us(e->buckets[i].chosen, b.bytes);
      worst = std::min(worst, best / ours);
      // Issue #15: >= 97 % of the exhaustive best in every bucket, never > 2 % behind the default.
      EXPECT_GE(best / ours, 0.97) << "seed " << seed << ", " << b.bytes << " B: "
                                   << label(b.chosen, algs, Collective::allreduce) << " vs "
                                   << label(e->buckets[i].chosen, algs, Collective::allreduce);
      EXPECT_LE(ours, model_us(OmpiConfig{}, b.bytes) * 1.02) << "seed " << seed << ", " << b.bytes;
    }
    double share = static_cast<double>(g->trials) / static_cast<double>(e->trials);
    worst_share = std::max(worst_share, share);
    EXPECT_LE(share, 0.25) << "seed " << seed << ": " << g->trials << " vs " << e->trials;
    // Largest size: the 64K-segmented ring (6 GB/s) must replace the default (4 GB/s ring), and
    // at 2 MiB too, the crossover that log-log prediction from the default segment size missed.
    EXPECT_EQ(g->buckets.back().chosen, (OmpiConfig{5, 65536})) << "seed " << seed;
    EXPECT_EQ(g->buckets[9].chosen, (OmpiConfig{5, 65536})) << "seed " << seed;
  }
  // The figures docs/TUNE.md quotes.
  std::printf("guided search, 20 seeds: worst bucket %.1f %% of exhaustive, at most %.1f %% of its trials\n",
              100 * worst, 100 * worst_share);
}

// Heavy-tailed noise: 10 % of trials 5x slower. The tuned choice must never be > 2 % slower than
// the default, whether the surface has real gains (model_us) or none (default_best_us).
TEST(MpiSearch, NeverLosesToTheDefaultUnderHeavyTailedNoise) {
  auto algs = allreduce_algs(4);
  SearchOptions o;
  int changed = 0;
  long trials = 0;
  for (Model m : {Model(model_us), Model(default_best_us)})
    for (unsigned seed = 1; seed <= 200; ++seed) {
      long launches = 0;
      auto g = guided_search(algs, sizes(), synthetic(0.01, &launches, seed, 0.1, 5.0, m), o);
      ASSERT_TRUE(g.ok()) << g.status().message();
      for (const auto& b : g->buckets) {
        EXPECT_LE(m(b.chosen, b.bytes), m(OmpiConfig{}, b.bytes) * 1.02)
            << "seed " << seed << ", " << b.bytes << " B: " << label(b.chosen, algs, Collective::allreduce);
        changed += m(b.chosen, b.bytes) < 0.97 * m(OmpiConfig{}, b.bytes);
      }
      trials += g->trials;
    }
  // And it still tunes: the real gains at 128 KiB-8 MiB (4 buckets, only on model_us) are mostly
  // found despite the tail.
  EXPECT_GT(changed, 200 * 4 / 2);
  std::printf("heavy tail, 2 x 200 draws: %d of 800 real gains kept, %.1f trials a draw\n", changed, trials / 400.0);
}

// One bucket, the default best, 10 % of trials 5x slower: the slow default trials are all that
// can make an algorithm 3-8 % slower "win". The half-range rule, deciding on 3 default trials,
// let two slow ones (p = 0.028 a draw) do it in 24 draws of these 1000.
TEST(MpiSearch, SlowDefaultTrialsDoNotMakeALoserWin) {
  auto algs = allreduce_algs(4);
  SearchOptions o;
  o.max_share = 0;  // the rule, not the budget: one size's screening alone is 8 of 27 trials
  int confirmed = 0;
  for (unsigned seed = 1; seed <= 1000; ++seed) {
    long launches = 0;
    auto g = guided_search(algs, {1 << 20}, synthetic(0.01, &launches, seed, 0.1, 5.0, default_best_us), o);
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(g->buckets[0].chosen, OmpiConfig{}) << "seed " << seed << ": "
                                                  << label(g->buckets[0].chosen, algs, Collective::allreduce);
    // Screening is 8 trials (the default and 7 configurations); more means a slow default trial
    // made the bucket look worth confirming, so the assertion above was exercised.
    confirmed += g->trials > 8;
  }
  EXPECT_GT(confirmed, 50);
}

TEST(RankTest, ExactMannWhitney) {
  // 3 vs 3, all pairs in favour: 1 ordering of C(6,3) = 20.
  EXPECT_DOUBLE_EQ(mann_whitney_p_less({1, 2, 3}, {4, 5, 6}), 1.0 / 20);
  EXPECT_DOUBLE_EQ(mann_whitney_p_less({1, 2, 4}, {3, 5, 6}), 2.0 / 20);  // U = 8
  EXPECT_DOUBLE_EQ(mann_whitney_p_less({4, 5, 6}, {1, 2, 3}), 1.0);
  // 6 vs 6 with one slow trial of x: U = 30 of 36, 30 of C(12,6) = 924 orderings reach it.
  EXPECT_DOUBLE_EQ(mann_whitney_p_less({1, 1.1, 1.2, 1.3, 1.4, 50}, {2, 2.1, 2.2, 2.3, 2.4, 2.5}), 30.0 / 924);
  // One huge value moves the verdict by one rank only.
  EXPECT_DOUBLE_EQ(mann_whitney_p_less({1, 2, 3}, {4, 5, 6e9}), 1.0 / 20);
  EXPECT_DOUBLE_EQ(mann_whitney_p_less({}, {1}), 1.0);
}

TEST(RankTest, StratifiedSumsTheStrataU) {
  // One stratum is the plain test.
  EXPECT_DOUBLE_EQ(mann_whitney_p_less({{{1, 2, 3}, {4, 5, 6}}}), 1.0 / 20);
  // Three strata of 1 against 2, every pair in favour: (1/3)^3.
  std::vector<Stratum> three{{{1}, {2, 3}}, {{10}, {20, 30}}, {{100}, {200, 300}}};
  EXPECT_NEAR(mann_whitney_p_less(three), 1.0 / 27, 1e-12);
  // One pair against in one stratum: U = 5 of 6; P(U >= 5) = 1/27 + 3 * (1/3)^3 = 4/27.
  three[0] = {{2.5}, {2, 3}};
  EXPECT_NEAR(mann_whitney_p_less(three), 4.0 / 27, 1e-12);
  // Two strata of 2 against 2, all in favour: (1/6)^2; an empty stratum adds nothing.
  EXPECT_NEAR(mann_whitney_p_less({{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}, {{}, {9}}}), 1.0 / 36, 1e-12);
  EXPECT_DOUBLE_EQ(mann_whitney_p_less(std::vector<Stratum>{}), 1.0);
}

TEST(MpiSearch, ConfigurationsOpenMpiRunsAsAnotherAreNotDistinct) {
  auto algs = allreduce_algs(4);
  SearchOptions o;
  // Without the rank count every MCA setting counts: 6 algorithms, the segmented ring at 3 sizes.
  EXPECT_EQ(all_configs(algs, o, {1 << 20}).size(), 9u);
  // At 4 ranks the segmented ring at the default segment size is the ring (ompi_runs_as), and on
  // a grid below 4 x 64 KiB its 64 KiB segments are too.
  o.nranks = 4;
  auto c = all_configs(algs, o, {64 << 10, 1 << 20});
  EXPECT_EQ(c.size(), 8u);
  EXPECT_EQ(std::count(c.begin(), c.end(), OmpiConfig{5, 0}), 0);
  EXPECT_EQ(all_configs(algs, o, {8, 64 << 10}).size(), 7u);
  // The exhaustive search measures the distinct ones: 8 x 2 sizes x 3 repeats.
  long launches = 0;
  auto e = exhaustive_search(algs, {64 << 10, 1 << 20}, synthetic(0.01, &launches), o);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->trials, 48);
  EXPECT_EQ(e->configurations, 8);
  // At 256 KiB the 64 KiB segments make one phase, the ring's messages: not distinct there, so a
  // grid of that size alone has 7 configurations (the 8 KiB segments make 8 phases: their own), and
  // at 512 KiB the 64 KiB segments make 2 phases: 8.
  EXPECT_EQ(all_configs(algs, o, {256 << 10}).size(), 7u);
  EXPECT_EQ(all_configs(algs, o, {512 << 10}).size(), 8u);
  // Broadcast: a segment covering the message is no segmentation. At 8 KiB: the default, 9
  // algorithms and the split binary tree's two segment sizes (it halves the message first, kept as
  // its own); at 16 KiB the other five segmented ones' 8 KiB segments count too.
  auto all = ompi_algorithms();
  ASSERT_TRUE(all.ok());
  auto bc = ompi_algorithms_for(*all, Collective::broadcast, 4);
  EXPECT_EQ(all_configs(bc, o, {8 << 10}).size(), 1u + 9u + 2u);
  EXPECT_EQ(all_configs(bc, o, {16 << 10}).size(), 1u + 9u + 2u + 5u);
  EXPECT_EQ(all_configs(bc, o, {1 << 20}).size(), 1u + 9u + 12u);
}

TEST(MpiSearch, TheBudgetBoundsTheTrials) {
  auto algs = allreduce_algs(4);
  SearchOptions o;
  o.nranks = 4;
  long launches = 0;
  // 3 sizes: exhaustive 8 x 3 x 3 = 72, 25 % = 18. Screening: the default at 3 sizes, 3 trials at
  // 8 B (2 floats < 4 ranks: the ring, Rabenseifner and the segmented ring all run recursive
  // doubling there, one trial for the four) and 6 at 512 KiB = 12.
  auto g = guided_search(algs, {8, 8 << 10, 512 << 10}, synthetic(0.01, &launches, 3), o);
  ASSERT_TRUE(g.ok());
  o.max_share = 0.01;  // a budget below the screening (0 trials): the screening alone
  long l2 = 0;
  auto s = guided_search(algs, {8, 8 << 10, 512 << 10}, synthetic(0.01, &l2, 3), o);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->trials, 12);
  o.max_share = 0.25;
  EXPECT_EQ(g->exhaustive_trials, 72);
  EXPECT_EQ(g->budget, 18);
  EXPECT_LE(g->trials, 18);
  // Without a budget the same search confirms what it selected.
  o.max_share = 0;
  launches = 0;
  auto u = guided_search(algs, {8, 8 << 10, 512 << 10}, synthetic(0.01, &launches, 3), o);
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->budget, 0);
  EXPECT_EQ(u->skipped, 0);
  EXPECT_GT(u->trials, 18);
}

TEST(RankTest, ManyTrialsUseTheNormalApproximationNotAHugeTable) {
  // 40 vs 40 exact, 41 vs 41 approximated: the two agree near the middle and both see a clear
  // separation; 2000 trials a side (a large --confirm) must not build an m*n*(m*n) table.
  auto seq = [](int n, double from) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(from + i);
    return v;
  };
  double exact = mann_whitney_p_less(seq(40, 0.5), seq(40, 0));
  double approx = mann_whitney_p_less(seq(41, 0.5), seq(41, 0));
  EXPECT_NEAR(exact, approx, 0.05);
  EXPECT_LT(mann_whitney_p_less(seq(2000, 0), seq(2000, 10000)), 1e-9);
  EXPECT_GT(mann_whitney_p_less(seq(2000, 10000), seq(2000, 0)), 0.999);
}

TEST(MpiSearch, KeepsTheDefaultWhenTheGainIsInsideTheNoise) {
  auto algs = allreduce_algs(4);
  long launches = 0;
  SearchOptions o;
  // 30 % noise: the small-size winners (alg 3 = the default's own choice) never beat it.
  auto g = guided_search(algs, {8, 32, 128}, synthetic(0.3, &launches), o);
  ASSERT_TRUE(g.ok());
  for (const auto& b : g->buckets) {
    if (b.chosen.alg != 0) {
      EXPECT_GT(b.default_us - b.best_us, b.noise_us) << b.bytes;
    }
  }
}

TEST(OmpiRules, FileFormatOpenMpiReads) {
  OmpiCollRules c;
  c.colltype = 2;
  c.comm_size = 4;
  c.comment = "allreduce";
  c.rules = {{1024, {4, 0}}, {8192, {4, 0}}, {1 << 20, {5, 65536}}};
  auto text = render_dynamic_rules({c}, "hello");
  EXPECT_EQ(text,
            "# hello\n"
            "1  # number of collectives\n"
            "# allreduce\n"
            "2  # collective id\n"
            "1  # number of communicator sizes\n"
            "4  # communicator size\n"
            "3  # number of message sizes\n"
            "0 0 0 0\n"
            "1024 4 0 0\n"
            "1048576 5 0 65536\n");
  auto all = ompi_algorithms();
  auto m = forced_mca(ompi_algorithms_for(*all, Collective::allreduce, 4)[4], {5, 8192});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[1].first, "coll_tuned_allreduce_algorithm");
  EXPECT_EQ(m[2].first, "coll_tuned_allreduce_algorithm_segmentsize");
  EXPECT_TRUE(forced_mca(ompi_algorithms_for(*all, Collective::allreduce, 4)[0], {}).empty());
}

// Open MPI's default is its fixed decision (coll_tuned_decision_fixed.c @ v4.1.4, the same
// v4.1.0-v5.0.9): at 4 ranks an all-reduce of 8 KiB and more is Rabenseifner at segment size 0,
// so forcing Rabenseifner there runs the default's messages.
TEST(MpiSearch, TheDefaultIsOpenMpisFixedDecision) {
  using C = Collective;
  EXPECT_EQ(ompi_fixed_decision(C::allreduce, 4, 8), 4);          // < 16 B: ring
  EXPECT_EQ(ompi_fixed_decision(C::allreduce, 4, 4096), 3);       // < 8 KiB: recursive doubling
  EXPECT_EQ(ompi_fixed_decision(C::allreduce, 4, 8192), 6);       // Rabenseifner
  EXPECT_EQ(ompi_fixed_decision(C::allreduce, 2, 100000), 5);     // 2 ranks, 64-256 KiB: segmented ring
  EXPECT_EQ(ompi_fixed_decision(C::allreduce, 2, 1 << 20), 6);
  EXPECT_EQ(ompi_fixed_decision(C::allreduce, 200, 200000), 3);   // 128-255 ranks, 128-256 KiB
  EXPECT_EQ(ompi_fixed_decision(C::allreduce, 10000, 20000), 3);  // >= 4096 ranks, 16-32 KiB
  EXPECT_FALSE(ompi_fixed_decision(C::broadcast, 4, 8192));       // no table for it: nothing assumed
  EXPECT_TRUE(ompi_fixed_decision_applies("4.1.4"));
  EXPECT_TRUE(ompi_fixed_decision_applies("5.0.9"));
  EXPECT_FALSE(ompi_fixed_decision_applies("4.0.7"));
  EXPECT_FALSE(ompi_fixed_decision_applies("5.1.0"));
  EXPECT_FALSE(ompi_fixed_decision_applies(""));

  auto algs = allreduce_algs(4);
  SearchOptions o;
  o.nranks = 4;
  const std::vector<std::size_t> grid = {16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20};
  EXPECT_EQ(all_configs(algs, o, grid).size(), 8u);
  o.default_is_fixed_decision = true;
  auto c = all_configs(algs, o, grid);
  EXPECT_EQ(c.size(), 7u);  // Rabenseifner forced is the default at every size of this grid
  EXPECT_EQ(std::count(c.begin(), c.end(), OmpiConfig{6, 0}), 0);
  // ... but not where the decision is recursive doubling: there it is its own.
  EXPECT_EQ(all_configs(algs, o, {4096, 1 << 20}).size(), 8u);
  // The exhaustive search measures it with the default (7 x 5 sizes x 3 repeats), and reports the
  // default where they tie.
  long launches = 0;
  auto e = exhaustive_search(algs, grid, synthetic(0.01, &launches), o);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->trials, 7 * 5 * 3);
  for (const auto& b : e->buckets) EXPECT_NE(b.chosen, (OmpiConfig{6, 0})) << b.bytes;
}

// `mpirun --version` of the real Open MPI here (openmpi-bin), and the text form.
TEST(MpiSearch, OpenMpiVersion) {
  EXPECT_EQ(ncdx::measure::open_mpi_version_of("mpirun (Open MPI) 4.1.4\n\nReport bugs to http://www.open-mpi.org/community/help/\n"),
            "4.1.4");
  EXPECT_EQ(ncdx::measure::open_mpi_version_of("prterun (Open MPI) 5.0.9\n"), "5.0.9");
  EXPECT_FALSE(ncdx::measure::open_mpi_version_of("HYDRA build details:\n    Version: 4.0.2\n"));  // MPICH
  EXPECT_FALSE(ncdx::measure::open_mpi_version_of("mpirun (Open MPI) \n"));
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun on PATH";
  auto v = ncdx::measure::open_mpi_version({});
  ASSERT_TRUE(v) << "mpirun on PATH is not Open MPI";
  EXPECT_TRUE(ompi_fixed_decision_applies(*v)) << *v;  // Debian 12: 4.1.4
}
