#pragma once
// The one formatter of integer lists as ranges (ranks, GPUs, CPUs): sorted, duplicates dropped,
// consecutive runs joined with '-': {0,1,2,3,5,7,...,63} -> "0-3,5,7-63". This is also the Linux
// cpulist format (Documentation/admin-guide/cputopology.rst, "cpulist format").
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::core {

struct RangeStyle {
  // A run of exactly two: "4-5" (true, cpulist form) or "4,5" (false).
  bool pair_as_range = true;
  // Stop after this many runs/singletons and append ",…" (0 = no limit).
  std::size_t max_groups = 0;
};

std::string format_ranges(std::vector<int> values, RangeStyle style = {});

// Host names in Slurm's hostlist form (scontrol show hostlist): names that differ only in a
// trailing number of the same zero-padded width fold into prefix[ranges]:
// {node0,node1,node2,node3,gpu-07,gpu-08,login} -> "gpu-[07-08], login, node[0-3]". Sorted; a name
// without a trailing number, or alone in its group, stays as it is.
std::string format_hostlist(const std::vector<std::string>& hosts, std::string_view sep = ", ");

}  // namespace ncdx::core
