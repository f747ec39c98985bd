#include "core/table.h"

#include <gtest/gtest.h>

#include "core/strings.h"

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

TEST(Table, SeveralTextColumnsWrapWidestFirst) {
  Table t({"STATUS", "PARAMETER", "RISK", "RECOMMENDED"});
  t.add({"WARN", "NCCL_IB_MTU", "no effect: never read by NCCL", "(none: MTU = min(local,remote) port active_mtu)"});
  t.add({"PASS", "NCCL_IB_TC", "-", "-"});
  t.wrap_columns({2, 3});
  // 6+2 + 11+2 leave 43 columns: RECOMMENDED (the widest) narrows first, then both share the room.
  EXPECT_EQ(t.render(false, 0, 64),
            "STATUS  PARAMETER    RISK               RECOMMENDED\n"
            "WARN    NCCL_IB_MTU  no effect: never   (none: MTU =\n"
            "                     read by NCCL       min(local,remote) port\n"
            "                                        active_mtu)\n"
            "PASS    NCCL_IB_TC   -                  -\n");
  for (std::size_t w : {64, 70, 80, 97}) {
    std::string out = t.render(false, 0, w), line;
    for (std::size_t i = 0, j; i < out.size(); i = j + 1) {
      j = out.find('\n', i);
      EXPECT_LE(display_width(out.substr(i, j - i)), w) << out;
    }
  }
  // Names stay whole: a column that does not wrap is never cut to fit.
  EXPECT_NE(t.render(false, 0, 30).find("NCCL_IB_MTU"), std::string::npos);
  // Fitting without a total width changes nothing.
  EXPECT_EQ(t.render(false).find('\n', 0), t.render(false).find("RECOMMENDED") + 11);
}
