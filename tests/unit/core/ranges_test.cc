#include "core/ranges.h"

#include <gtest/gtest.h>

using namespace ncdx::core;

TEST(Ranges, RunsAndSingletons) {
  std::vector<int> v = {7, 0, 1, 2, 3, 5};
  for (int i = 8; i <= 63; ++i) v.push_back(i);
  EXPECT_EQ(format_ranges(v), "0-3,5,7-63");
  EXPECT_EQ(format_ranges({}), "");
  EXPECT_EQ(format_ranges({4}), "4");
  EXPECT_EQ(format_ranges({3, 3, 1}), "1,3");  // sorted, duplicates dropped
}

TEST(Ranges, PairsAndLimit) {
  EXPECT_EQ(format_ranges({4, 5}), "4-5");  // Linux cpulist form
  EXPECT_EQ(format_ranges({4, 5, 9}, RangeStyle{.pair_as_range = false}), "4,5,9");
  EXPECT_EQ(format_ranges({0, 2, 4, 6, 7, 8}, RangeStyle{.max_groups = 2}), "0,2,…");
  EXPECT_EQ(format_ranges({0, 2}, RangeStyle{.max_groups = 2}), "0,2");  // nothing left out: no ellipsis
}

TEST(Hostlist, FoldsTrailingNumbersAsSlurmDoes) {
  EXPECT_EQ(ncdx::core::format_hostlist({"node3", "node0", "node1", "node2"}), "node[0-3]");
  EXPECT_EQ(ncdx::core::format_hostlist({"gpu-07", "gpu-08", "gpu-10", "login"}), "gpu-[07-08,10], login");
  EXPECT_EQ(ncdx::core::format_hostlist({"tf144"}), "tf144");
  EXPECT_EQ(ncdx::core::format_hostlist({"node1", "node1"}), "node1");
}

TEST(Hostlist, DifferentPaddingOrPrefixNeverMerge) {
  // "n01" and "n1" are different hosts: widths keep them apart, as do prefixes and dotted domains.
  EXPECT_EQ(ncdx::core::format_hostlist({"n01", "n02", "n1"}), "n1, n[01-02]");
  EXPECT_EQ(ncdx::core::format_hostlist({"a1", "b2", "10.0.0.1", "10.0.0.2"}), "10.0.0.[1-2], a1, b2");
  EXPECT_EQ(ncdx::core::format_hostlist({}), "");
}
