#pragma once
// Whether one configuration's trials are faster than another's, by ranks (Mann-Whitney U), so
// that a heavy-tailed sample (a trial hit by the scheduler, docs/PERFORMANCE.md "ncdx tune
// --backend mpi") moves the verdict by one rank, not by its size; a half-range of 3 samples
// does not bound such noise.
#include <utility>
#include <vector>

namespace ncdx::model::tune {

// Exact one-sided p-value of H0 "x is not stochastically smaller than y" against "x is faster":
// P(U >= u) under H0, U = #pairs (x_i < y_j), ties counting 1/2 and rounded down (conservative).
// Exact null counts by the recurrence of Mann & Whitney (1947), Ann. Math. Statist. 18(1):50-60.
// With 3 trials each the smallest p is 1/20 = 0.05 (every pair in favour). Above 40 trials a side
// the normal approximation of U replaces the exact table (its size grows as (m*n)^2).
double mann_whitney_p_less(const std::vector<double>& x, const std::vector<double>& y);

// The same over strata (one per message size): x and y are compared only within a stratum and
// the statistic is the sum of the strata's U (each rounded down), its exact null distribution the
// convolution of theirs (the stratified rank-sum test; van Elteren, "On the combination of
// independent two-sample tests of Wilcoxon", Bull. Inst. Internat. Statist. 37, 1960, with
// weight 1 per pair). Three strata of 2 against 1 trials reach p = 1/27; a lone stratum is
// mann_whitney_p_less.
using Stratum = std::pair<std::vector<double>, std::vector<double>>;  // (x, y)
double mann_whitney_p_less(const std::vector<Stratum>& strata);

}  // namespace ncdx::model::tune
