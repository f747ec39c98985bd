// The nccl-tests reader against real outputs (../shared/data/nccl_tests_results.jsonl: rows,
// footer and the largest row as the record's `parsed` block gives them) and the formats of
// NVIDIA/nccl-tests src/util.cu: -J JSON, the pre-2.13 table, mpirun prefixes.
#include <gtest/gtest.h>

#include <fstream>

#include "analyze/judge/judge.h"
#include "analyze/judge/nccl_tests_parse.h"
#include "core/json.h"
#include "support/test_paths.h"

using namespace ncdx::analyze::judge;

TEST(NcclTestsParse, RealOutputsMatchTheRecordedParse) {
  std::ifstream f(std::string(NCDX_SHARED_DIR) + "/data/nccl_tests_results.jsonl");
  if (!f) GTEST_SKIP() << "../shared/data/nccl_tests_results.jsonl not found";
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    auto r = nlohmann::json::parse(line);
    std::string id = r["id"];
    auto runs = parse_nccl_tests(r["output_verbatim"].get<std::string>(), id);
    ASSERT_TRUE(runs.ok()) << id << ": " << runs.status().message();
    ASSERT_EQ(runs->size(), 1u) << id;
    const auto& run = (*runs)[0];
    const auto& p = r["parsed"];
    EXPECT_EQ(run.rows.size(), p["rows"].get<std::size_t>()) << id;
    EXPECT_EQ(run.rows.back().size, p["max_size_bytes"].get<std::uint64_t>()) << id;
    ASSERT_TRUE(run.rows.back().oop.busbw_gbps) << id;
    EXPECT_DOUBLE_EQ(*run.rows.back().oop.busbw_gbps, p["busbw_at_largest_size_oop_ip"][0].get<double>()) << id;
    if (p["avg_bus_bandwidth"].is_number()) {
      ASSERT_TRUE(run.avg_busbw) << id;
      EXPECT_DOUBLE_EQ(*run.avg_busbw, p["avg_bus_bandwidth"].get<double>()) << id;
    }
    ++n;
  }
  EXPECT_EQ(n, 11);
}

TEST(NcclTestsParse, JsonOutput) {
  // Keys as nccl-tests src/util.cu writes them with -J.
  const char* j = R"({"version":1,"args":["./build/all_gather_perf","-b","8"],"nccl_version":22703,
    "config":{"nthreads":1,"ngpus":8},
    "devices":[{"rank":0,"hostname":"n1","device":0,"device_info":"NVIDIA H100 80GB HBM3"}],
    "results":[{"size":1048576,"count":32768,"type":"float","redop":"none","root":"    -1",
                "out_of_place":{"time":20.5,"alg_bw":51.2,"bus_bw":44.8,"nwrong":0},
                "in_place":{"time":20.1,"alg_bw":52.1,"bus_bw":45.6,"nwrong":null}}],
    "average_bus_bandwidth":{"bandwidth":45.2,"okay":"unchecked"},"out_of_bounds":{"count":0,"okay":true}})";
  auto runs = parse_nccl_tests(j, "x.json");
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  const auto& run = (*runs)[0];
  EXPECT_EQ(run.format, "json");
  EXPECT_EQ(run.test_name, "all_gather_perf");
  ASSERT_TRUE(run.coll);
  EXPECT_EQ(*run.nccl_version, "2.27.3");
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_EQ(run.rows[0].root, -1);
  EXPECT_DOUBLE_EQ(*run.rows[0].oop.busbw_gbps, 44.8);
  EXPECT_FALSE(run.rows[0].ip.wrong.has_value());
  EXPECT_DOUBLE_EQ(*run.avg_busbw, 45.2);
  EXPECT_FALSE(parse_nccl_tests(R"({"results": 3})", "bad.json").ok());
}

TEST(NcclTestsParse, OldFormatAndPrefixes) {
  // 2.6-era table: no root column, `error` instead of #wrong; mpirun --tag-output prefixes.
  const char* t =
      "[1,0]<stdout>:# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor)\n"
      "[1,0]<stdout>:#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
      "[1,0]<stdout>:     1048576        262144   float     sum    250.1    4.19    7.86  2e-07    249.3    4.21    7.89  2e-07\n"
      "[1,0]<stdout>:     2097152        524288   float     sum    410.7    5.11    9.57  5e-02    409.9    5.12    9.59  2e-07\n"
      "[1,0]<stdout>:# Out of bounds values : 0 OK\n"
      "[1,0]<stdout>:# Avg bus bandwidth    : 8.72\n";
  auto runs = parse_nccl_tests(t, "old.txt");
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  const auto& run = (*runs)[0];
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_TRUE(run.wrong_is_error_metric);
  EXPECT_FALSE(run.rows[0].root.has_value());
  EXPECT_DOUBLE_EQ(*run.rows[1].oop.busbw_gbps, 9.57);
  JudgeOptions o;
  o.coll = ncdx::model::cost::Collective::AllReduce;
  auto js = judge_runs(*runs, o);
  ASSERT_EQ(js.size(), 1u);
  EXPECT_EQ(js[0].kind, VerdictKind::Wrong);  // error 5e-02 > 1e-3 tolerance
}

TEST(NcclTestsParse, SrunLabelPrefix) {
  // srun --label puts "<task id>: " before each line (the form of the p4de/p5 tables in
  // aws-samples/awsome-distributed-training's nccl-tests README); before this was peeled the
  // parser found no table at all.
  const char* t =
      "0: #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
      "0: #        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n"
      "0:      1048576        262144     float     sum      -1    300.0    3.50    6.55      0    301.0    3.48    6.53      0\n"
      "12:    2097152        524288     float     sum      -1    420.0    4.99    9.36      0    421.0    4.98    9.34      0\n"
      "0: # Avg bus bandwidth    : 7.95\n";
  auto runs = parse_nccl_tests(t, "srun.txt");
  ASSERT_TRUE(runs.ok()) << runs.status().message();
  const auto& run = (*runs)[0];
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[1].size, 2097152u);
  EXPECT_DOUBLE_EQ(*run.rows[0].oop.busbw_gbps, 6.55);
  EXPECT_DOUBLE_EQ(*run.avg_busbw, 7.95);
}

TEST(NcclTestsParse, NoTableIsBadInput) {
  auto r = parse_nccl_tests("hello\nworld\n", "x.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ncdx::core::Exit::bad_input);
  EXPECT_NE(r.status().message().find("x.txt:1:"), std::string::npos);
}
