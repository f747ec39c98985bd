// A Python traceback appended without a prefix under a "[rankN]:" logger line (CPython logging's
// exception(): Formatter.format puts the formatter's prefix on the record's first line only) is
// that rank's (Scanner::traceback_rank).
#include <gtest/gtest.h>

#include <algorithm>

#include "support/triage_test_util.h"

namespace {

const char* kLog =
    "[rank1]: training step 7 failed\n"
    "Traceback (most recent call last):\n"
    "  File \"/job/train.py\", line 88, in step\n"
    "    batch = next(it)\n"
    "ValueError: could not convert string to float: 'nan?'\n"
    "[rank0]: RuntimeError: [/__w/pytorch/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:561] Connection closed "
    "by peer [127.0.0.1]:40211. This is typically caused by a remote worker crashing.\n";

TEST(TracebackRank, InheritsTheRankOfTheLoggerLineAbove) {
  auto r = ncdx::testing::triage_text("job.log", kLog);
  // The exception is rank 1's own error, the cause of rank 0's lost connection (before, rank 1 was
  // named only for being silent, as a hang).
  EXPECT_EQ(r.verdict.id, "python.exception") << r.verdict.summary;
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{1});
  ASSERT_FALSE(r.verdict.evidence.empty());
  EXPECT_EQ(r.verdict.evidence.front().rank, 1);
}

TEST(TracebackRank, NotWhenALineComesBetween) {
  std::string log = kLog;
  log.insert(log.find("Traceback"), "epoch 3 done\n");
  auto r = ncdx::testing::triage_text("job.log", log);
  for (const auto& f : r.findings)
    if (f.id == "python.exception")
      for (const auto& e : f.evidence) EXPECT_NE(e.rank, 1) << "the traceback does not follow the rank line";
  if (r.verdict.id == "python.exception")
    for (const auto& e : r.verdict.evidence) EXPECT_NE(e.rank, 1);
}

}  // namespace
