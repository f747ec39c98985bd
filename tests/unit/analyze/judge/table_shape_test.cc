// What nccl-tests' columns say about the run (table_shape.h): against every real output of
// ../shared/data/nccl_tests_results.jsonl (its recorded test and rank count), the real outputs
// copied into tests/data/model/judge/, and tables in the shapes each nccl-tests test prints
// (NVIDIA/nccl-tests src/<test>.cu @ v2.19.6: redop/root passed to TimeTest, paramcount, GetBw).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analyze/judge/judge.h"
#include "analyze/judge/nccl_tests_parse.h"
#include "analyze/judge/table_shape.h"
#include "core/json.h"
#include "model/cost/spec_parse.h"
#include "support/test_paths.h"

using namespace ncdx::analyze::judge;
namespace mc = ncdx::model::cost;

namespace {

NcclTestsRun parse_one(const std::string& text) {
  auto runs = parse_nccl_tests(text, "t");
  EXPECT_TRUE(runs.ok()) << runs.status().message();
  EXPECT_EQ(runs->size(), 1u);
  return runs->front();
}

std::string file(const std::string& name) {
  std::ifstream f(std::string(NCDX_SOURCE_DIR) + "/tests/data/model/judge/" + name);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A headerless table (as pasted into issues) of one test: rows "size count type redop root" with
// the time, algbw and busbw nccl-tests would print for `factor`, at 100 GB/s algbw from 1 MiB.
std::string table(const char* type, int elt, const char* redop, int root, int per_rank, double factor) {
  std::string t = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
  for (unsigned long long size = 1 << 20; size <= (1ull << 28); size <<= 2) {
    const double alg = 100.0, bus = alg * factor, us = static_cast<double>(size) / (alg * 1e3);
    char line[256];
    std::snprintf(line, sizeof line, "%12llu %12llu %8s %6s %6d %9.1f %7.2f %7.2f %6d %9.1f %7.2f %7.2f %6d\n", size,
                  size / static_cast<unsigned long long>(elt * per_rank), type, redop, root, us, alg, bus, 0, us, alg, bus, 0);
    t += line;
  }
  return t;
}

}  // namespace

TEST(TableShape, RealOutputsAgreeWithTheirRecords) {
  std::ifstream f(std::string(NCDX_SHARED_DIR) + "/data/nccl_tests_results.jsonl");
  if (!f) GTEST_SKIP() << "../shared/data/nccl_tests_results.jsonl not found";
  std::string line;
  int colls = 0, ranks = 0, records = 0;
  while (std::getline(f, line)) {
    auto r = nlohmann::json::parse(line);
    const std::string id = r["id"];
    auto runs = parse_nccl_tests(r["output_verbatim"].get<std::string>(), id);
    ASSERT_TRUE(runs.ok()) << id;
    const TableShape s = table_shape(runs->front());
    ++records;
    std::printf("[table-shape] %-32s %-14s %s\n", id.c_str(), s.nranks ? std::to_string(*s.nranks).c_str() : "-",
                s.evidence.c_str());
    if (s.coll) {
      ++colls;
      EXPECT_EQ(s.coll, mc::parse_collective(r["test"].get<std::string>())) << id;
    }
    if (!s.nranks) continue;
    ++ranks;
    // aws-batch-p5-2node's record says 16 ranks; its table (busbw/algbw 1.750 at every size) is 8
    // ranks on one node (docs/MODEL.md (b), correction of 2026-12-07).
    const int recorded = r["hardware"]["total_ranks"].get<int>();
    EXPECT_EQ(*s.nranks, id == "aws-batch-p5-2node" ? 8 : recorded) << id;
  }
  // Measured 2026-12-07: the collective of the 7 all_reduce runs on more than 2 ranks and the rank
  // count of 6 of them (nccltests78's 64 ranks print 1.968 at 2.2 GB/s algbw: 50-80 ranks fit);
  // the 3 sendrecv runs and the 2-rank all_reduce print a factor of 1, which both tests give.
  EXPECT_EQ(records, 11);
  EXPECT_GE(colls, 7);
  EXPECT_GE(ranks, 6);
}

TEST(TableShape, AllReduceRankCountFromTheFactor) {
  // eugene-dgxh100-4gpu: the table alone, busbw 370.75 / algbw 247.17 = 1.4999.
  auto s = table_shape(parse_one(file("eugene-dgxh100-4gpu.txt")));
  EXPECT_EQ(s.coll, mc::Collective::AllReduce);
  EXPECT_EQ(s.nranks, 4);
  EXPECT_NE(s.evidence.find("all_reduce on 4 ranks"), std::string::npos) << s.evidence;
  // aws-batch-p5-2node (mpirun prefixes): 1.750 = 2(8-1)/8.
  s = table_shape(parse_one(file("aws-batch-p5-2node.txt")));
  EXPECT_EQ(s.nranks, 8);
  // 2(n-1)/n for n = 64 printed with two decimals at 100 GB/s (196.88 / 100): still one integer.
  s = table_shape(parse_one(table("float", 4, "sum", -1, 1, 2.0 * 63 / 64)));
  EXPECT_EQ(s.nranks, 64);
  // At 1024 ranks the rounding leaves several: the collective, not the count.
  s = table_shape(parse_one(table("float", 4, "sum", -1, 1, 2.0 * 1023 / 1024)));
  EXPECT_EQ(s.coll, mc::Collective::AllReduce);
  EXPECT_FALSE(s.nranks);
}

TEST(TableShape, EachTestsColumns) {
  // reduce_scatter: an operation, the per-rank count, (n-1)/n.
  auto s = table_shape(parse_one(table("bfloat16", 2, "sum", -1, 16, 15.0 / 16)));
  EXPECT_EQ(s.coll, mc::Collective::ReduceScatter);
  EXPECT_EQ(s.nranks, 16);
  // all_gather and alltoall print the same columns: the rank count only.
  s = table_shape(parse_one(table("float", 4, "none", -1, 16, 15.0 / 16)));
  EXPECT_FALSE(s.coll);
  EXPECT_EQ(s.nranks, 16);
  EXPECT_NE(s.evidence.find("all_gather or alltoall on 16 ranks"), std::string::npos) << s.evidence;
  // broadcast ("none", root 0) and reduce (an operation, root 0): busbw = algbw, no count.
  s = table_shape(parse_one(table("float", 4, "none", 0, 1, 1.0)));
  EXPECT_EQ(s.coll, mc::Collective::Broadcast);
  EXPECT_FALSE(s.nranks);
  s = table_shape(parse_one(table("int8", 1, "max", 3, 1, 1.0)));
  EXPECT_EQ(s.coll, mc::Collective::Reduce);
  // sendrecv prints all_reduce's columns with a factor of 1, as all_reduce on 2 ranks does.
  s = table_shape(parse_one(file("moc-h100-roce-sendrecv-4gpu.txt")));
  EXPECT_FALSE(s.coll);
  EXPECT_FALSE(s.nranks);
  // Columns that contradict each other: nothing.
  EXPECT_FALSE(table_shape(parse_one(table("float", 4, "sum", -1, 16, 1.5))).nranks);
  EXPECT_FALSE(table_shape(parse_one(table("float", 4, "none", 0, 1, 1.5))).coll);
  EXPECT_FALSE(table_shape(parse_one(table("float", 4, "none", 2, 8, 7.0 / 8))).coll);  // gather: not modelled
  EXPECT_EQ(table_shape(parse_one(table("complex", 8, "sum", -1, 1, 1.5))).evidence, "");  // unknown type
}

TEST(TableShape, TheJudgeUsesIt) {
  auto spec4 = mc::parse_spec("nodes=1,gpus=4,gpu=H100");
  ASSERT_TRUE(spec4.ok());
  JudgeOptions o;
  o.spec = *spec4;
  // A pasted table without its header: judged as all_reduce, and the note says why.
  auto js = judge_runs({parse_one(file("eugene-dgxh100-4gpu.txt"))}, o);
  ASSERT_EQ(js.size(), 1u);
  EXPECT_EQ(js[0].coll, mc::Collective::AllReduce);
  EXPECT_NE(js[0].kind, VerdictKind::Unknown) << js[0].verdict;
  ASSERT_EQ(js[0].notes.size(), 1u);
  EXPECT_NE(js[0].notes[0].find("collective inferred"), std::string::npos);
  // A spec of 8 GPUs against a 4-rank table: judged as given, and said.
  auto spec8 = mc::parse_spec("nodes=1,gpus=8,gpu=H100");
  ASSERT_TRUE(spec8.ok());
  o.spec = *spec8;
  js = judge_runs({parse_one(file("eugene-dgxh100-4gpu.txt"))}, o);
  ASSERT_EQ(js[0].notes.size(), 2u);
  EXPECT_NE(js[0].notes[1].find("say 4 ranks"), std::string::npos) << js[0].notes[1];
  EXPECT_NE(js[0].notes[1].find("has 8"), std::string::npos) << js[0].notes[1];
  // A named test whose columns fit another one.
  auto run = parse_one(table("float", 4, "none", -1, 8, 7.0 / 8));
  run.coll = mc::Collective::AllReduce;
  run.test_name = "all_reduce_perf";
  js = judge_runs({run}, {});
  EXPECT_TRUE(js[0].notes.empty());  // all_gather/alltoall: no single test to contradict with
  run = parse_one(table("float", 4, "sum", -1, 8, 7.0 / 8));
  run.coll = mc::Collective::AllReduce;
  js = judge_runs({run}, {});
  ASSERT_EQ(js[0].notes.size(), 1u);
  EXPECT_NE(js[0].notes[0].find("fit reducescatter, not allreduce"), std::string::npos) << js[0].notes[0];
}
