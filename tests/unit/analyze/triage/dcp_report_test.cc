// A traceback one rank prints for another (issue #10: name the cause, not the messengers):
// torch.distributed.checkpoint raises one CheckpointException on every rank with a block per failed
// rank, "Traceback (most recent call last): (RANK N)" (torch/distributed/checkpoint/api.py).
// The real job is tests/data/triage/dcp (README there).
#include <gtest/gtest.h>

#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace {

using ncdx::testing::triage_paths;
using ncdx::testing::triage_text;

TEST(DcpReport, RealJobNamesTheRankWhoseWriteFailed) {
  auto r = triage_paths({std::string(NCDX_TEST_DATA) + "/triage/dcp/disk-full-rank2/console.log"});
  EXPECT_EQ(r.verdict.id, "os.disk-full");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>({2}));
}

// Two failed ranks: each block is its rank's; the printer's own lines before and after are its own.
TEST(DcpReport, EachBlockBelongsToItsRankUntilTheExceptionLine) {
  std::string log =
      "[rank0]: torch.distributed.checkpoint.api.CheckpointException: CheckpointException ranks:dict_keys([1, 3])\n"
      "[rank0]: Traceback (most recent call last): (RANK 1)\n"
      "[rank0]:   File \"/x/filesystem.py\", line 524, in create_stream\n"
      "[rank0]:     with path.open(mode) as stream:\n"
      "[rank0]: OSError: [Errno 28] No space left on device\n"
      "[rank0]: Traceback (most recent call last): (RANK 3)\n"
      "[rank0]:   File \"/x/filesystem.py\", line 524, in create_stream\n"
      "[rank0]: OSError: [Errno 28] No space left on device\n";
  auto r = triage_text("a.log", log);
  EXPECT_EQ(r.verdict.id, "os.disk-full");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>({1, 3}));
  // Without the header the printer is the one that failed.
  auto own = triage_text("b.log", "[rank0]: OSError: [Errno 28] No space left on device\n");
  EXPECT_EQ(own.verdict.culprit.ranks, std::vector<int>({0}));
}

}  // namespace
