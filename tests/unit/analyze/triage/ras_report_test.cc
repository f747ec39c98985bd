// NCCL's RAS report pasted into a log (triage/ras_report.cc). The report lines are built from the
// rasOutAppend formats of NVIDIA/nccl src/ras/client_support.cc (v2.24.3-1 .. v2.30.7-1):
// "#%d-%d (%016lx) MISMATCH", "  Communicator ranks have different %s operation counts",
// "  %d ranks have launched up to operation %ld", "  Rank %d has launched up to operation %ld --
// GPU %s managed by process %d on node %s", "#%d-%d (%016lx) INCOMPLETE", "  Missing communicator
// data from %d rank%s", "  Rank %d -- GPU %s managed by process %d on node %s".
#include <gtest/gtest.h>

#include "support/triage_test_util.h"

namespace {

std::string timeouts(std::initializer_list<int> ranks) {
  std::string s;
  for (int r : ranks) {
    const std::string n = std::to_string(r);
    s += "[rank" + n + "]:[E1021 16:44:02.100000 2100" + n + " ProcessGroupNCCL.cpp:616] [PG ID 0 PG GUID 0(default_pg) Rank " +
         n +
         "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5521, OpType=ALLREDUCE, NumelIn=1024, "
         "NumelOut=1024, Timeout(ms)=600000) ran for 600044 milliseconds before timing out.\n";
  }
  return s;
}

const char* kMismatch =
    "Warnings\n"
    "========\n"
    "\n"
    "#0-0 (8f1e4b2a9c0d3e71) MISMATCH\n"
    "  Communicator ranks have different AllReduce operation counts\n"
    "  3 ranks have launched up to operation 5521\n"
    "  Rank 2 has launched up to operation 5520 -- GPU 2 managed by process 40212 on node gpu-n2\n"
    "\n";

TEST(RasReport, TheRankBehindIsTheCulprit) {
  auto r = ncdx::testing::triage_text("job.log", timeouts({0, 1, 3}) + kMismatch);
  EXPECT_EQ(r.verdict.id, "nccl-ras.behind");
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{2});
  EXPECT_EQ(r.verdict.culprit.hosts, std::vector<std::string>{"gpu-n2"});
}

TEST(RasReport, SeveralRanksBehindListedUnderTheirCount) {
  auto r = ncdx::testing::triage_text("job.log",
                                      "#0-0 (8f1e4b2a9c0d3e71) MISMATCH\n"
                                      "  Communicator ranks have different AllGather operation counts\n"
                                      "  6 ranks have launched up to operation 12\n"
                                      "  2 ranks have not launched any operations\n"
                                      "  Rank 4 -- GPU 0 managed by process 500 on node n3\n"
                                      "  Rank 5 -- GPU 1 managed by process 501 on node n3\n");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{4, 5}));
  EXPECT_EQ(r.verdict.culprit.hosts, std::vector<std::string>{"n3"});
}

TEST(RasReport, ARankAheadIsNotBehind) {
  auto r = ncdx::testing::triage_text("job.log",
                                      "#0-0 (8f1e4b2a9c0d3e71) MISMATCH\n"
                                      "  Communicator ranks have different AllReduce operation counts\n"
                                      "  3 ranks have launched up to operation 7\n"
                                      "  Rank 1 has launched up to operation 8 -- GPU 1 managed by process 9 on node n1\n");
  EXPECT_NE(r.verdict.id, "nccl-ras.behind");
}

TEST(RasReport, EvenSplitIsUndecidable) {
  auto r = ncdx::testing::triage_text("job.log",
                                      "#0-0 (8f1e4b2a9c0d3e71) MISMATCH\n"
                                      "  Communicator ranks have different AllReduce operation counts\n"
                                      "  Rank 0 has launched up to operation 7 -- GPU 0 managed by process 9 on node n1\n"
                                      "  Rank 1 has launched up to operation 6 -- GPU 1 managed by process 10 on node n1\n");
  EXPECT_NE(r.verdict.id, "nccl-ras.behind");
}

TEST(RasReport, MissingRankFromAnIncompleteCommunicator) {
  auto r = ncdx::testing::triage_text("job.log", timeouts({0, 1, 2}) +
                                                     "Errors\n======\n\n"
                                                     "#0-0 (8f1e4b2a9c0d3e71) INCOMPLETE\n"
                                                     "  Missing communicator data from 1 rank\n"
                                                     "  Rank 3 -- GPU 3 managed by process 40213 on node gpu-n2\n");
  EXPECT_EQ(r.verdict.id, "nccl-ras.missing");
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{3});
}

TEST(RasReport, RankLinesOutsideABlockAreIgnored) {
  auto r = ncdx::testing::triage_text("job.log", "  Rank 3 -- GPU 3 managed by process 40213 on node gpu-n2\n");
  EXPECT_EQ(r.verdict.klass, "none");
}

}  // namespace
