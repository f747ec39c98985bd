// A launcher line that must not give a rank: DeepSpeed's "exits with return code" names the last
// process the launcher spawned, not the one that failed (tests/data/triage/deepspeed_launch, a real
// DeepSpeed 0.16.4 run).
#include <gtest/gtest.h>

#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace {

// DeepSpeed's launcher names the last process it spawned in its "exits with return code" line,
// whichever one failed (launch.py sigkill_handler formats main()'s `cmd`): a real run where local
// rank 1 segfaulted prints '--local_rank=3'. No rank may be read from it.
TEST(DeepSpeedLaunch, ExitLineNamesTheLastSpawnedNotTheFailed) {
  const std::string c = ncdx::testing::test_data_text("triage/deepspeed_launch/launch_segv.log");
  ASSERT_NE(c.find("'--local_rank=3'] exits with return code = -11"), std::string::npos);
  ASSERT_NE(c.find("local_rank 1 RANK 1 started"), std::string::npos);
  auto r = ncdx::testing::triage_text("console.log", c);
  EXPECT_EQ(r.verdict.klass, "other");
  EXPECT_TRUE(r.verdict.culprit.ranks.empty()) << "rank " << r.verdict.culprit.ranks.front();
}

}  // namespace
