#pragma once
// Per-iteration statistics of one benchmark row, computed as nccl-tests' computeIterStats does
// (util.cu @ a0b82b2): sorted samples, p50 = sorted[n/2], pXX = sorted[min(n-1, ceil(n*XX/100)-1)],
// population standard deviation, CV = stdev/avg in percent.
#include <vector>

namespace ncdx::measure {

struct IterStats {
  int n = 0;
  double min = 0, max = 0, avg = 0, p50 = 0, p95 = 0, p99 = 0, stdev = 0, cv_pct = 0;
};

IterStats iter_stats(std::vector<double> samples);

}  // namespace ncdx::measure
