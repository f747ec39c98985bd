// `ncdx tune --backend mpi`'s search on synthetic surfaces at several noise levels (docs/TUNE.md
// "Search quality on known surfaces"): per noise level and grid, the trial share against the
// exhaustive search, the real gains (>= 3 %) kept, buckets > 2 % slower than the default and the
// worst bucket as a share of the exhaustive best, each judged on the true surface. The surfaces are
// the unit tests' (tests/unit/model/mpi_surfaces.h); no MPI is run.
// Usage: tune_search_sweep [DRAWS [REPEATS]]   (default 400 and SearchOptions' exhaustive_repeats:
// the budget is a share of configurations x sizes x REPEATS, as `ncdx tune --repeats` makes it)
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "model/mpi_surfaces.h"

using namespace ncdx::model::tune;
using namespace ncdx::model::tune::testing;

int main(int argc, char** argv) {
  const int draws = argc > 1 ? std::atoi(argv[1]) : 400;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : SearchOptions{}.exhaustive_repeats;
  const auto algs = allreduce_algs(4);
  struct Grid {
    const char* name;
    std::vector<std::size_t> sizes;
  };
  for (const Grid& gr : {Grid{"64 KiB-4 MiB (4 sizes)", grid(64 << 10, 4 << 20)}, Grid{"16 KiB-4 MiB (5 sizes)", grid(16 << 10, 4 << 20)},
                         Grid{"16 KiB-16 MiB (6 sizes)", grid(16 << 10, 16 << 20)}})
    for (double sigma : {0.03, 0.07, 0.10, 0.15}) {
      SearchOptions o;
      o.nranks = 4;
      o.exhaustive_repeats = repeats;
      double worst = 1, sum_share = 0, max_share = 0;
      int slower = 0, gains = 0, kept = 0;
      for (unsigned seed = 1; seed <= static_cast<unsigned>(draws); ++seed) {
        Model m = as_run(namespace_like(seed), algs, 4);
        long launches = 0;
        auto g = guided_search(algs, gr.sizes, synthetic(sigma, &launches, seed, 0, 1, m), o);
        auto e = exhaustive_search(algs, gr.sizes, synthetic(sigma, &launches, seed + 1000, 0, 1, m), o);
        if (!g || !e) return 1;
        for (std::size_t i = 0; i < g->buckets.size(); ++i) {
          const auto& b = g->buckets[i];
          double ours = m(b.chosen, b.bytes), best = m(e->buckets[i].chosen, b.bytes), def = m(OmpiConfig{}, b.bytes);
          worst = std::min(worst, best / ours);
          slower += ours > 1.02 * def;
          gains += best < 0.97 * def;
          kept += best < 0.97 * def && ours < 0.97 * def;
        }
        double share = static_cast<double>(g->trials) / static_cast<double>(e->trials);
        sum_share += share;
        max_share = std::max(max_share, share);
      }
      std::printf("namespace-like %s, %2.0f %% noise, %d draws: trials %.1f %% mean / %.1f %% max, %d of %d gains kept, "
                  "%d > 2 %% slower, worst bucket %.1f %%\n",
                  gr.name, 100 * sigma, draws, 100 * sum_share / draws, 100 * max_share, kept, gains, slower, 100 * worst);
    }
  return 0;
}
