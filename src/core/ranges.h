#pragma once
// The one formatter of integer lists as ranges (ranks, GPUs, CPUs): sorted, duplicates dropped,
// consecutive runs joined with '-': {0,1,2,3,5,7,...,63} -> "0-3,5,7-63". This is also the Linux
// cpulist format (Documentation/admin-guide/cputopology.rst, "cpulist format").
#include <cstddef>
#include <string>
#include <vector>

namespace ncdx::core {

struct RangeStyle {
  // A run of exactly two: "4-5" (true, cpulist form) or "4,5" (false).
  bool pair_as_range = true;
  // Stop after this many runs/singletons and append ",…" (0 = no limit).
  std::size_t max_groups = 0;
};

std::string format_ranges(std::vector<int> values, RangeStyle style = {});

}  // namespace ncdx::core
