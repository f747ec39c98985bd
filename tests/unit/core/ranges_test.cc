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
