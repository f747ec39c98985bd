// The FR checks on the generated scenarios: who never joined, mismatches, clean dumps.
#include <gtest/gtest.h>

#include "analyze/fr_analyze.h"

namespace ncdx::analyze {
namespace {

FrAnalysis run(const std::string& sub) {
  auto d = read_fr_path(std::string(NCDX_TEST_DATA) + "/fr/" + sub);
  EXPECT_TRUE(d) << d.status().message();
  return d ? analyze_fr(*d) : FrAnalysis{};
}

const core::Finding* find(const FrAnalysis& a, const std::string& id) {
  for (const auto& f : a.findings)
    if (f.id == id) return &f;
  return nullptr;
}

TEST(FrAnalyze, RankThatNeverJoinedIsTheCulprit) {
  for (const char* dir : {"hang_rank2", "hang_rank2_json"}) {
    FrAnalysis a = run(dir);
    ASSERT_EQ(a.findings.size(), 1u) << dir;
    const core::Finding& f = a.findings[0];
    EXPECT_EQ(f.id, "fr.missing-ranks");
    EXPECT_EQ(f.klass, "timeout-hang");
    EXPECT_EQ(f.culprit.ranks, std::vector<int>{2});
    EXPECT_NE(f.title.find("nccl:all_reduce seq 17"), std::string::npos) << f.title;
    EXPECT_GE(f.confidence, 0.85);
    ASSERT_FALSE(f.evidence.empty());
    EXPECT_EQ(f.evidence[0].rank, 2);
    EXPECT_NE(f.evidence[0].file.find("nccl_trace_rank_2"), std::string::npos);
    ASSERT_EQ(a.groups.size(), 3u);
    EXPECT_EQ(a.groups[0].first_unfinished_seq, 17);
    EXPECT_EQ(a.groups[0].ranks[2].last_enqueued, 16);
    EXPECT_EQ(a.groups[0].ranks[1].first_seq_in_buffer, 5);  // rank 1's buffer was overwritten
    EXPECT_EQ(a.groups[1].status, "ok");
    EXPECT_EQ(a.groups[2].status, "ok");
  }
  // Stacks are in the pickle evidence only (the JSON form has none) and a fix asks for them.
  FrAnalysis j = run("hang_rank2_json");
  bool asks_stacks = false;
  for (const auto& x : j.findings[0].fixes) asks_stacks |= x.env == "TORCH_INCLUDE_STACK_TRACE=1";
  EXPECT_TRUE(asks_stacks);
}

TEST(FrAnalyze, RankWithoutDumpIsTheLikelyCulprit) {
  FrAnalysis a = run("missing_dump");
  const core::Finding* f = find(a, "fr.missing-dumps");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->culprit.ranks, std::vector<int>{2});
  EXPECT_LT(f->confidence, 0.7);
  EXPECT_EQ(a.ranks_without_dump, std::vector<int>{2});
}

TEST(FrAnalyze, Mismatches) {
  struct Case { const char* dir; const char* id; int culprit; long long seq; };
  for (const Case& c : {Case{"size_mismatch", "fr.size-mismatch", 1, 9}, Case{"dtype_mismatch", "fr.dtype-mismatch", 3, 5},
                        Case{"op_mismatch", "fr.op-mismatch", 3, 12}}) {
    FrAnalysis a = run(c.dir);
    ASSERT_EQ(a.findings.size(), 1u) << c.dir;  // the mismatch explains the stuck collective
    const core::Finding& f = a.findings[0];
    EXPECT_EQ(f.id, c.id);
    EXPECT_EQ(f.klass, "data-mismatch");
    EXPECT_EQ(f.culprit.ranks, std::vector<int>{c.culprit});
    EXPECT_NE(f.title.find("seq " + std::to_string(c.seq)), std::string::npos);
    EXPECT_EQ(a.groups[0].first_unfinished_seq, c.seq);
    EXPECT_GE(f.evidence.size(), 2u);
  }
}

TEST(FrAnalyze, CleanDumpsHaveNoFindings) {
  for (const char* dir : {"clean", "hostnames"}) {
    FrAnalysis a = run(dir);
    EXPECT_TRUE(a.findings.empty()) << dir << ": " << (a.findings.empty() ? "" : a.findings[0].title);
    ASSERT_EQ(a.groups.size(), 1u);
    EXPECT_EQ(a.groups[0].status, "ok");
    EXPECT_FALSE(a.groups[0].first_unfinished_seq.has_value());
  }
  std::string table = format_fr_summary(run("clean"));
  EXPECT_NE(table.find("0:default_pg"), std::string::npos);
  EXPECT_NE(table.find("8 (0-3)"), std::string::npos);
}

TEST(FrAnalyze, SingleDumpSaysWhatItWaitsIn) {
  FrAnalysis a = run("hang_rank2/nccl_trace_rank_0");
  const core::Finding* f = find(a, "fr.single-rank-waiting");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->culprit.ranks.empty());
  EXPECT_LE(f->confidence, 0.5);
}

TEST(FrAnalyze, NcclVersionsDiffer) {
  auto d = read_fr_path(std::string(NCDX_TEST_DATA) + "/fr/clean");
  ASSERT_TRUE(d);
  d->ranks[3].comm_lib_version = "2.18.1";
  FrAnalysis a = analyze_fr(*d);
  const core::Finding* f = find(a, "fr.comm-lib-version-mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->klass, "version-mismatch");
}

TEST(FrAnalyze, RankList) {
  EXPECT_EQ(format_rank_list({3, 0, 1, 2, 5, 7, 8}), "0-3,5,7,8");
  EXPECT_EQ(format_rank_list({}), "");
}

}  // namespace
}  // namespace ncdx::analyze
