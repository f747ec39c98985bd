#pragma once
// Synthetic cost surfaces for the Open MPI tuning search (MpiSearch.* tests): a seeded noisy
// measurement of each coll_tuned configuration, so the search's decisions can be checked against
// the known truth. No timing: every "measurement" is drawn from the surface.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "model/tune/mpi_search.h"
#include "model/tune/ompi_alphabeta.h"
#include "model/tune/ompi_rules.h"

namespace ncdx::model::tune::testing {

using Model = std::function<double(const OmpiConfig&, std::size_t)>;

// Open MPI's allreduce algorithms at `np` ranks (knowledge/data/ompi_coll_tuned.tsv).
inline std::vector<OmpiAlgorithm> allreduce_algs(int np) {
  auto all = ompi_algorithms();
  return all ? ompi_algorithms_for(*all, measure::Collective::allreduce, np) : std::vector<OmpiAlgorithm>{};
}

// alpha + bytes/beta per algorithm; the default behaves like algorithm 3 below 64 KB and 4 above.
inline double model_us(const OmpiConfig& c, std::size_t bytes) {
  auto ab = [&](double alpha, double gbps) { return alpha + static_cast<double>(bytes) / (gbps * 1e3); };
  switch (c.alg) {
    case 0: return bytes < 65536 ? ab(20, 2) : ab(60, 4);
    case 1: return ab(30, 0.5);
    case 2: return ab(25, 1);
    case 3: return ab(20, 2);
    case 4: return ab(60, 4);
    case 5: return ab(80, c.knob == 65536 ? 6 : 4.5);
    case 6: return ab(40, 5);
  }
  return 1e9;
}

// A surface where Open MPI's default is the best everywhere and every algorithm is 3-8 % slower
// than it: any change the search makes there is a loss, so noise is all that can cause one.
inline double default_best_us(const OmpiConfig& c, std::size_t bytes) {
  double d = model_us(OmpiConfig{}, bytes);
  return c.alg == 0 ? d : d * (1.03 + 0.01 * (c.alg % 6) + (c.knob ? 0.005 : 0.0));
}

// Shaped like the real run of docs/PERFORMANCE.md "ncdx tune --backend mpi" (4 namespace hosts,
// 200 Mbit/s htb links, allreduce of floats): the alpha-beta model of Open MPI's algorithms
// (ompi_alphabeta.h) with the link fitted to that run's ring and Rabenseifner times at 4 MiB
// (481 and 726 ms: beta 76.5 ns/B one-way; beta_x 100 ns/B, so the segmented ring wins 24-31 %
// from 256 KiB up, as measured there), Open MPI's fixed decision for 4 ranks (Rabenseifner at
// >= 8 KiB, recursive doubling below) as the default, and per seed each algorithm off the model
// by a factor in [1 - spread, 1 + spread] (docs/MODEL.md (c): median error 4-9 % at 4 ranks; at
// 64 KiB Rabenseifner's and the ring's lines cross, so the spread decides how big a gain the
// near ties there hide — the real run measured none beyond its noise).
// nonoverlapping (not in the model): a binomial reduce then a binomial broadcast, 4 (alpha + n beta).
// The segmented ring: the ring where Open MPI runs it (n < p * segsize), else 2 % slower.
inline Model namespace_like(unsigned seed, double spread = 0.03) {
  std::mt19937 rng(seed * 7919u + 13u);
  std::uniform_real_distribution<double> err(1.0 - spread, 1.0 + spread);
  std::map<int, double> f;
  for (int a = 1; a <= 6; ++a) f[a] = err(rng);
  return [f](const OmpiConfig& c, std::size_t bytes) {
    const Link l{100, 0.0765, 5e-5, 0.100};
    auto t = [&](const char* name) {
      auto m = ompi_alphabeta(measure::Collective::allreduce, name, 4, bytes, 4);
      return m ? m->time_us(l) : 1e9;
    };
    const double n = static_cast<double>(bytes);
    switch (c.alg) {
      case 0: return (bytes >= 8192 ? t("rabenseifner") * f.at(6) : t("recursive_doubling") * f.at(3));
      case 1: return t("basic_linear") * f.at(1);
      case 2: return 4 * (l.alpha_us + n * l.beta_us) * f.at(2);
      case 3: return t("recursive_doubling") * f.at(3);
      case 4: return t("ring") * f.at(4);
      case 5: return t("ring") * f.at(4) * (c.knob == 0 || n < 4.0 * c.knob ? 1.0 : 1.02);
      case 6: return t("rabenseifner") * f.at(6);
    }
    return 1e9;
  };
}

// The surface as Open MPI runs it at `nranks`: a forced configuration that Open MPI runs as another
// one (ompi_space's runs_as: the segmented ring below p segments or in one phase is the ring) costs
// what that one costs.
inline Model as_run(Model m, const std::vector<OmpiAlgorithm>& algs, int nranks) {
  SearchOptions o;
  o.nranks = nranks;
  auto runs = ompi_space(algs, o).runs_as;
  return [m, runs](const OmpiConfig& c, std::size_t bytes) { return m(c.alg == 0 ? c : runs(c, bytes), bytes); };
}

// Every trial's median is model * (1 + N(0, noise)); with probability `tail_p` the trial is
// `tail_x` times slower (a trial the scheduler hit: docs/PERFORMANCE.md "ncdx tune --backend mpi").
inline MeasureFn synthetic(double noise, long* launches, unsigned seed = 7, double tail_p = 0, double tail_x = 1,
                           Model model = model_us) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [=](const OmpiConfig& c, const std::vector<std::size_t>& sizes) -> core::Result<std::map<std::size_t, Sample>> {
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

// nccl-tests' sweep -b FROM -e TO -f 4.
inline std::vector<std::size_t> grid(std::size_t from, std::size_t to) {
  std::vector<std::size_t> v;
  for (std::size_t s = from; s <= to; s *= 4) v.push_back(s);
  return v;
}

}  // namespace ncdx::model::tune::testing
