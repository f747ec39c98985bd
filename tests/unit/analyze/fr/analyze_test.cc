// The FR checks on the generated scenarios: who never joined, mismatches, clean dumps.
#include <gtest/gtest.h>

#include "analyze/fr/analyze.h"
#include "report/fr_summary.h"
#include "support/test_paths.h"

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

// The real fr_trace report of PR #140969 said: seq 31117, record id 31116, nccl:all_reduce,
// missing ranks {3, 4, 5, 6, 7}, input sizes [[1571911]], state scheduled, from sync_buffers.
TEST(FrAnalyze, ReproducesTheRealPr140969Report) {
  FrAnalysis a = run("pr140969");
  const core::Finding* f = find(a, "fr.missing-ranks");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->culprit.ranks, (std::vector<int>{3, 4, 5, 6, 7}));
  EXPECT_NE(f->title.find("nccl:all_reduce seq 31117 on default_pg (pg 0)"), std::string::npos) << f->title;
  bool quoted = false;
  for (const auto& e : f->evidence)
    quoted |= e.rank == 0 && e.text.find("record_id 31116") != std::string::npos &&
              e.text.find("[[1571911]]") != std::string::npos && e.text.find("state scheduled") != std::string::npos &&
              e.text.find("sync_buffers") != std::string::npos;
  EXPECT_TRUE(quoted);
  EXPECT_EQ(a.groups[0].first_unfinished_seq, 31117);
}

// Rank 2 skipped the all_reduce because it is blocked in a TP-group collective that rank 3 (busy
// in the all_reduce) never called: the two findings name each other's blocker.
TEST(FrAnalyze, CulpritBlockedInAnotherGroupIsDescribed) {
  auto d = read_fr_path(std::string(NCDX_TEST_DATA) + "/fr/hang_rank2");
  ASSERT_TRUE(d);
  FrRankDump& r2 = d->ranks[2];
  FrEntry e = r2.entries.back();
  e.record_id = *e.record_id + 1;
  e.pg_name = "2";
  e.pg_desc = "TENSOR_MODEL_PARALLEL_GROUP";
  e.pg_id = 2;
  e.collective_seq_id = 3;
  e.state = "started";
  r2.entries.push_back(e);
  FrAnalysis a = analyze_fr(*d);
  std::vector<std::string> titles;
  const core::Finding* pg0 = nullptr;
  const core::Finding* pg2 = nullptr;
  for (const auto& f : a.findings) {
    if (f.id != "fr.missing-ranks") continue;
    if (f.title.find("(pg 0)") != std::string::npos) pg0 = &f;
    if (f.title.find("(pg 2)") != std::string::npos) pg2 = &f;
  }
  ASSERT_NE(pg0, nullptr);
  ASSERT_NE(pg2, nullptr);
  EXPECT_EQ(pg0->culprit.ranks, std::vector<int>{2});
  EXPECT_NE(pg0->summary.find("newest entry is nccl:all_reduce seq 3 on TENSOR_MODEL_PARALLEL_GROUP (pg 2), still started"),
            std::string::npos)
      << pg0->summary;
  EXPECT_EQ(pg2->culprit.ranks, std::vector<int>{3});
  EXPECT_NE(pg2->summary.find("still started"), std::string::npos) << pg2->summary;  // rank 3 waits in pg 0
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

TEST(FrAnalyze, PendingSendNamesThePeerThatNeverPostedTheRecv) {
  FrAnalysis a = run("p2p_hang");
  ASSERT_EQ(a.findings.size(), 1u);
  const core::Finding& f = a.findings[0];
  EXPECT_EQ(f.id, "fr.p2p-pending");
  EXPECT_EQ(f.klass, "timeout-hang");
  EXPECT_EQ(f.culprit.ranks, std::vector<int>{1});  // 2->3 is pending on both sides: no culprit there
  EXPECT_EQ(a.groups[0].status, "send/recv pending");
}

TEST(FrAnalyze, CleanDumpsHaveNoFindings) {
  for (const char* dir : {"clean", "hostnames"}) {
    FrAnalysis a = run(dir);
    EXPECT_TRUE(a.findings.empty()) << dir << ": " << (a.findings.empty() ? "" : a.findings[0].title);
    ASSERT_EQ(a.groups.size(), 1u);
    EXPECT_EQ(a.groups[0].status, "ok");
    EXPECT_FALSE(a.groups[0].first_unfinished_seq.has_value());
  }
  std::string table = ncdx::report::format_fr_summary(run("clean"));
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

namespace ncdx::analyze {
namespace {
// Shapes come from the dump: dims whose product overflows (found by fr_pickle_fuzz in CI) must not
// be undefined behaviour; the sizes still differ, so the mismatch is still reported.
TEST(FrAnalyze, HugeShapesDoNotOverflow) {
  auto d = read_fr_path(std::string(NCDX_TEST_DATA) + "/fr/size_mismatch");
  ASSERT_TRUE(d);
  for (auto& r : d->ranks)
    for (auto& e : r.entries)
      if (e.input_sizes && !e.input_sizes->empty()) {
        auto sizes = *e.input_sizes;  // shared between entries (core::SharedOpt): changed as a copy
        sizes[0] = {7935448950854656LL, 19789, r.rank.value_or(0) == 1 ? 3 : 2};
        e.input_sizes = std::move(sizes);
      }
  FrAnalysis a = analyze_fr(*d);
  EXPECT_NE(find(a, "fr.size-mismatch"), nullptr);
}
// Real gloo dumps (PyTorch 2.15): the odd collective is found from the entries, the unnamed
// pg_config group is not shown as a group, and the summary says what gloo's "completed" means.
TEST(FrAnalyze, RealGlooDumpsFromTheFaultBench) {
  FrAnalysis a = run("gloo_real_op_mismatch");
  const core::Finding* f = find(a, "fr.op-mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->culprit.ranks, std::vector<int>{1});
  ASSERT_EQ(a.groups.size(), 1u);
  EXPECT_EQ(a.groups[0].name, "0");
  ASSERT_FALSE(a.notes.empty());
  EXPECT_NE(a.notes.back().find("gloo dumps: no work states"), std::string::npos);
  EXPECT_NE(report::format_fr_summary(a, false).find("note: gloo dumps"), std::string::npos);
  // NCCL's dumps record states: no such note.
  for (const auto& n : run("op_mismatch").notes) EXPECT_EQ(n.find("gloo dumps"), std::string::npos) << n;
}

}  // namespace
}  // namespace ncdx::analyze
