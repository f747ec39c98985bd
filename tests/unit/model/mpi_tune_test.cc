// The Open MPI tuning search and its rules file, driven by a synthetic cost surface (a seeded
// noisy alpha-beta model per algorithm) so the decisions can be checked exactly; the real
// Open MPI runs are tests/bench/mpi_bench_check.py and bench/tune_mpi.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>

#include "model/tune/mpi_search.h"
#include "model/tune/ompi_rules.h"
#include "model/tune/rank_test.h"

using namespace ncdx::model::tune;
using ncdx::measure::Collective;

namespace {

std::vector<OmpiAlgorithm> allreduce_algs(int np) {
  auto all = ompi_algorithms();
  EXPECT_TRUE(all.ok());
  return ompi_algorithms_for(*all, Collective::allreduce, np);
}

// alpha + bytes/beta per algorithm; the default behaves like algorithm 3 below 64 KB and 4 above.
double model_us(const OmpiConfig& c, std::size_t bytes) {
  auto ab = [&](double alpha, double gbps) { return alpha + static_cast<double>(bytes) / (gbps * 1e3); };
  switch (c.alg) {
    case 0: return bytes < 65536 ? ab(20, 2) : ab(60, 4);
    case 1: return ab(30, 0.5);
    case 2: return ab(25, 1);
    case 3: return ab(20, 2);
    case 4: return ab(60, 4);
    case 5: return ab(80, c.segsize == 65536 ? 6 : 4.5);
    case 6: return ab(40, 5);
  }
  return 1e9;
}

// Every trial's median is model * (1 + N(0, noise)); with probability `tail_p` the whole trial is
// `tail_x` times slower (a trial the scheduler hit: docs/PERFORMANCE.md "ncdx tune --backend mpi").
using Model = std::function<double(const OmpiConfig&, std::size_t)>;
MeasureFn synthetic(double noise, long* launches, unsigned seed = 7, double tail_p = 0, double tail_x = 1,
                    Model model = model_us) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [=](const OmpiConfig& c, const std::vector<std::size_t>& sizes) -> ncdx::core::Result<std::map<std::size_t, Sample>> {
    ++*launches;
    std::normal_distribution<double> n(0, noise);
    std::bernoulli_distribution hit(tail_p);
    std::map<std::size_t, Sample> out;
    for (auto s : sizes) {
      double t = model(c, s) * (1 + n(*rng)) * (hit(*rng) ? tail_x : 1.0);
      out[s] = Sample{t, t * noise, 20};
    }
    return out;
  };
}

// A surface where Open MPI's default is the best everywhere and every algorithm is 3-8 % slower
// than it: any change the search makes there is a loss, so noise is all that can cause one.
double default_best_us(const OmpiConfig& c, std::size_t bytes) {
  double d = model_us(OmpiConfig{}, bytes);
  return c.alg == 0 ? d : d * (1.03 + 0.01 * (c.alg % 6) + (c.segsize ? 0.005 : 0.0));
}

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
