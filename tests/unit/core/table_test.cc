#include "core/table.h"

#include <gtest/gtest.h>

using namespace ncdx::core;

TEST(Table, AlignsColumnsByDisplayWidth) {
  Table t({"check", "value"});
  t.add({"bw", "12 µs"});
  t.add({"shm size", "64 MiB"});
  EXPECT_EQ(t.render(false), "check     value\nbw        12 µs\nshm size  64 MiB\n");
}
