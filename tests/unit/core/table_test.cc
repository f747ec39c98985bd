#include "core/table.h"

#include <gtest/gtest.h>

using namespace ncdx::core;

TEST(Table, AlignsColumnsByDisplayWidth) {
  Table t({"check", "value"});
  t.add({"bw", "12 µs"});
  t.add({"shm size", "64 MiB"});
  EXPECT_EQ(t.render(false), "check     value\nbw        12 µs\nshm size  64 MiB\n");
}

TEST(Table, LastColumnWrapsToFitTheTotalWidth) {
  Table t({"STATUS", "CHECK", "RESULT"});
  t.add({"FAIL", "os.shm_size", "/dev/shm 64 MiB, 4 GPU(s): NCCL's SHM transport needs more"});
  t.add({"PASS", "os.numa", "1 NUMA node(s)"});
  EXPECT_EQ(t.render(false, 0, 50),
            "STATUS  CHECK        RESULT\n"
            "FAIL    os.shm_size  /dev/shm 64 MiB, 4 GPU(s):\n"
            "                     NCCL's SHM transport needs\n"
            "                     more\n"
            "PASS    os.numa      1 NUMA node(s)\n");
  // Without a total width the row stays whole (piped output keeps lines for grep).
  EXPECT_NE(t.render(false).find("NCCL's SHM transport needs more\n"), std::string::npos);
}

TEST(Table, WrappedColumnNeverNarrowerThanItsFloor) {
  Table t({"A", "B"});
  t.add({"a-very-long-first-column-value", "one two three four five six seven eight nine ten"});
  // 10 columns cannot hold the first column: the last one still gets its 24 (then the line overflows).
  std::string out = t.render(false, 0, 10);
  EXPECT_NE(out.find("one two three four five\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  six seven eight nine ten\n"), std::string::npos) << out;
}
