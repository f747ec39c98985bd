// An nccl-tests run met in a triage input: the lines its reader needs are kept (bounded), with the
// input's line numbers, and the judge's verdict becomes a triage finding.
#include "analyze/triage/nccl_tests_capture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/triage_test_util.h"
#include "support/test_paths.h"

namespace ncdx::analyze {
namespace {

using ncdx::testing::triage_text;

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(NcclTestsCapture, KeepsTableMetaAndInfoLinesWithTheirLineNumbers) {
  NcclTestsCapture c;
  c.add(0, 1, "Traceback (most recent call last):", false);                  // not nccl-tests: dropped
  c.add(0, 2, "# nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592", false);  // meta
  c.add(0, 3, "node1:10:10 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via P2P/IPC", true);
  c.add(0, 4, "#       size         count      type   redop    root     time   algbw   busbw #wrong", false);
  c.add(0, 5, "           8             2     float     sum      -1    19.61    0.00    0.00      0", false);
  c.add(1, 1, "# a comment in a file without a table", false);
  auto t = c.take_tables();
  ASSERT_EQ(t.size(), 1u);  // file 1 has no header
  EXPECT_EQ(t[0].file, 0u);
  EXPECT_EQ(t[0].text.find("Traceback"), std::string::npos);
  EXPECT_NE(t[0].text.find("via P2P/IPC"), std::string::npos);
  EXPECT_EQ(t[0].input_line(1), 2);  // kept line 1 is input line 2
  EXPECT_EQ(t[0].input_line(4), 5);
  EXPECT_EQ(t[0].input_line(99), 99);
}

TEST(NcclTestsCapture, NcclInfoLinesAreCappedOnTheirOwn) {
  NcclTestsCapture c;
  const std::string info(1000, 'x');
  for (int i = 0; i < 5000; ++i) c.add(0, i + 1, "node1:1:1 [0] NCCL INFO " + info, true);  // 5 MB of INFO
  c.add(0, 5001, "#  size  count  type  redop  root  time  algbw  busbw  #wrong", false);
  auto t = c.take_tables();
  ASSERT_EQ(t.size(), 1u);
  EXPECT_LE(t[0].text.size(), (2u << 20) + 200);  // the INFO cap, plus the header kept after it
  EXPECT_NE(t[0].text.find("busbw"), std::string::npos);
}

// The real table of a single-node A40 run with P2P disabled (tests/data/model/judge/README.md:
// recorded as bad) under the header lines a whole nccl-tests run prints before it (test name,
// the device list; nccl-tests src/common.cu): triage called such a log "No failure found".
TEST(NcclTestsCapture, TriageJudgesARealSlowRun) {
  auto dir = std::filesystem::path(NCDX_TEST_DATA) / "model" / "judge";
  const std::string head =
      "# Collective test starting: all_reduce_perf\n"
      "# nThread 1 nGpus 2 minBytes 1073741824 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
      "#\n# Using devices\n"
      "#  Rank  0 Group  0 Pid  41210 on    node1 device  0 [0x01] NVIDIA A40\n"
      "#  Rank  1 Group  0 Pid  41210 on    node1 device  1 [0x25] NVIDIA A40\n";
  const std::string table = read_file(dir / "eugene-a40-node-p2pdisable.txt");
  auto r = triage_text("a40.log", head + table);
  EXPECT_EQ(r.verdict.id, "judge.nccl-tests-slow") << r.verdict.title;
  EXPECT_EQ(r.verdict.severity, core::Severity::warn);
  ASSERT_FALSE(r.verdict.evidence.empty());
  ASSERT_TRUE(r.verdict.evidence[0].line.has_value());
  EXPECT_EQ(*r.verdict.evidence[0].line, 1);  // where the run begins (its header), as numbered in the input
  // The bare table names no collective and no device: the judge cannot judge it, nor can triage.
  EXPECT_EQ(triage_text("a40.log", table).verdict.id, "triage.none");
  // Wrong results need no model.
  auto wrong = triage_text("synthetic-wrong.txt", read_file(dir / "synthetic-wrong.txt"));
  bool judged = false;
  for (const auto& f : wrong.findings) judged |= f.id == "judge.nccl-tests-wrong-results";
  judged |= wrong.verdict.id == "judge.nccl-tests-wrong-results";
  EXPECT_TRUE(judged) << wrong.verdict.id;
}

}  // namespace
}  // namespace ncdx::analyze
