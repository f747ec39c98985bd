// torchfrtrace's report pasted into a log (analyze/triage/fr_trace_text.cc), on the real output of
// torchfrtrace 2.15.0 (tests/data/triage/fr_trace_text/SOURCES.md) and the real report of
// pytorch/pytorch#140969.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analyze/triage/fr_trace_text.h"
#include "support/test_paths.h"
#include "support/triage_test_util.h"

namespace ncdx::analyze {
namespace {

using ncdx::testing::triage_text;

std::string report(const std::string& name) {
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/triage/fr_trace_text/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_FALSE(ss.str().empty()) << name;
  return ss.str();
}

// What the victims print around it: every rank but the culprits times out in the collective.
std::string victims(std::initializer_list<int> ranks) {
  std::string out;
  for (int r : ranks)
    out += "[rank" + std::to_string(r) + "]:[E1205 10:00:00.000000 123 ProcessGroupNCCL.cpp:632] [Rank " +
           std::to_string(r) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=17, OpType=ALLREDUCE, NumelIn=266240, "
           "NumelOut=266240, Timeout(ms)=600000) ran for 600050 milliseconds before timing out.\n";
  return out;
}

TEST(FrTraceText, NamesTheRankThatArguesWithTheOthers) {
  auto r = triage_text("a.log", report("op_mismatch.txt"));
  EXPECT_EQ(r.verdict.id, "fr-trace.mismatch");
  EXPECT_EQ(r.verdict.klass, "data-mismatch");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{3}));
  EXPECT_NE(r.verdict.title.find("COLLECTIVE_TYPE_MISMATCH"), std::string::npos) << r.verdict.title;
  for (auto [file, rank] : {std::pair{"size_mismatch.txt", 1}, std::pair{"dtype_mismatch.txt", 3}}) {
    auto m = triage_text("a.log", report(file));
    EXPECT_EQ(m.verdict.klass, "data-mismatch") << file;
    EXPECT_EQ(m.verdict.culprit.ranks, (std::vector<int>{rank})) << file;
  }
}

// torchfrtrace compares every rank with its first rank: when that rank is the odd one it names all
// the others. The one member it does not name is the culprit.
TEST(FrTraceText, TheFirstRankIsTheCulpritWhenEveryOtherRankIsNamed) {
  auto r = triage_text("a.log", report("first_rank_odd.txt"));
  EXPECT_EQ(r.verdict.id, "fr-trace.mismatch");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0}));
}

TEST(FrTraceText, TwoRanksThatDisagreeAreUndecidable) {
  std::string two = report("op_mismatch.txt");
  two.replace(two.find("world size: 4"), 13, "world size: 2");
  two.replace(two.find("expected ranks: {0, 1, 2, 3}"), 29, "expected ranks: {0, 3}");
  auto r = triage_text("a.log", two);
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{0, 3}));
  EXPECT_LT(r.verdict.confidence, 0.6);
}

// The victims' timeouts are louder; the report names the rank that never joined. Blocks of
// collectives that completed are not hangs (the rank's ring buffer had dropped them).
TEST(FrTraceText, TheRankThatNeverJoinedBeatsTheTimeoutsOfTheOthers) {
  auto r = triage_text("a.log", victims({0, 1, 3}) + report("hang_rank2.txt"));
  EXPECT_EQ(r.verdict.id, "fr-trace.not-joined");
  EXPECT_EQ(r.verdict.klass, "timeout-hang");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{2}));
  EXPECT_NE(r.verdict.title.find("seq 17"), std::string::npos) << r.verdict.title;
}

TEST(FrTraceText, BothWordingsOfNotJoining) {
  for (const std::string& text :
       {report("pr140969.txt"), report("../../fr/pytorch_pr140969_fr_trace_output.txt")}) {
    auto r = triage_text("a.log", text);
    EXPECT_EQ(r.verdict.id, "fr-trace.not-joined");
    EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{3, 4, 5, 6, 7}));
  }
}

TEST(FrTraceText, RanksWithoutADump) {
  auto r = triage_text("a.log", report("missing_dump.txt"));
  EXPECT_EQ(r.verdict.id, "fr-trace.missing-dumps");
  EXPECT_EQ(r.verdict.culprit.ranks, (std::vector<int>{2}));
}

TEST(FrTraceText, FieldLinesAreReadOnlyInsideABlock) {
  std::vector<FrTraceBlock> blocks;
  FrTraceTextState st;
  read_fr_trace_line("missing ranks: {1}", 0, 1, st, blocks);
  EXPECT_TRUE(blocks.empty());
  read_fr_trace_line("Not all ranks joining collective, sequence number: 9", 0, 2, st, blocks);
  for (long long l = 3; l < 40; ++l) read_fr_trace_line("filler", 0, l, st, blocks);
  read_fr_trace_line("missing ranks: {1}", 0, 40, st, blocks);  // too far from its header
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].seq, 9);
  EXPECT_TRUE(blocks[0].missing.empty());
  // Hostile sets: huge numbers, junk, no closing brace.
  read_fr_trace_line("Not all ranks joining collective, sequence number: 99999999999999999999999", 0, 41, st, blocks);
  read_fr_trace_line("missing ranks: {1, x, -3, 99999999999, 2", 0, 42, st, blocks);
  read_fr_trace_line("error msg: Culprit rank ; Culprit rank 5; Error type:", 0, 43, st, blocks);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[1].seq, -1);
  EXPECT_TRUE(blocks[1].missing.empty());
  EXPECT_EQ(blocks[1].errors.size(), 1u);
}

}  // namespace
}  // namespace ncdx::analyze
