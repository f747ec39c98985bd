// nccl-tests' accounting (sizes, counts, factors), the per-iteration statistics, the data-check
// patterns and the nccl-tests text/JSON renderers, against numbers and lines nccl-tests itself
// produces (NVIDIA/nccl-tests @ a0b82b2; a published all_reduce_perf row from
// shared/data/nccl_tests_results.jsonl, dstack-lambda-b200-2node).
#include <gtest/gtest.h>

#include "measure/collective/bench_run.h"
#include "measure/collective/collective.h"
#include "measure/collective/data_check.h"
#include "measure/collective/iter_stats.h"
#include "report/bench/bench_render.h"

using namespace ncdx::measure;

TEST(Collective, CountsFollowNcclTests) {
  // all_gather.cu: base = (count/n) & ~(16/elt - 1); float, 1 MiB, 4 ranks.
  auto k = coll_counts(Collective::allgather, (1 << 20) / 4, 4, 4);
  EXPECT_EQ(k.param, 65536u);
  EXPECT_EQ(k.send, 65536u);
  EXPECT_EQ(k.recv, 262144u);
  EXPECT_EQ(k.send_inplace_offset, 65536u);
  EXPECT_EQ(printed_bytes(k, 4), 1u << 20);
  // 1000 B of float over 3 ranks: 250/3 = 83, rounded down to a multiple of 4 elements = 80.
  k = coll_counts(Collective::reducescatter, 250, 4, 3);
  EXPECT_EQ(k.param, 80u);
  EXPECT_EQ(k.send, 240u);
  EXPECT_EQ(k.recv_inplace_offset, 80u);
  EXPECT_EQ(printed_bytes(k, 4), 960u);
  k = coll_counts(Collective::alltoall, 1024, 8, 8);  // doubles: multiples of 2 elements
  EXPECT_EQ(k.param, 128u);
  EXPECT_EQ(k.send, 1024u);
  k = coll_counts(Collective::allreduce, 2, 4, 16);
  EXPECT_EQ(k.send, 2u);
  EXPECT_EQ(k.param, 2u);
}

TEST(Collective, BusBandwidthFactors) {
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::allreduce, 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::allgather, 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::reducescatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::alltoall, 2), 0.5);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::reduce, 8), 1.0);
  EXPECT_DOUBLE_EQ(busbw_factor(Collective::sendrecv, 8), 1.0);
  // algbw: allreduce 1 GB in 1 s = 1 GB/s; allgather counts param x n.
  auto b = bandwidth(Collective::allreduce, 250'000'000, 4, 1.0, 8);
  EXPECT_DOUBLE_EQ(b.algbw_gbps, 1.0);
  EXPECT_DOUBLE_EQ(b.busbw_gbps, 1.75);
  b = bandwidth(Collective::allgather, 250'000'000, 4, 1.0, 4);
  EXPECT_DOUBLE_EQ(b.algbw_gbps, 4.0);
  EXPECT_DOUBLE_EQ(b.busbw_gbps, 3.0);
}

TEST(Collective, SizesAndNames) {
  EXPECT_EQ(size_sweep(8, 128, 2, 0), (std::vector<std::size_t>{8, 16, 32, 64, 128}));
  EXPECT_EQ(size_sweep(1024, 4096, 1, 1024), (std::vector<std::size_t>{1024, 2048, 3072, 4096}));
  EXPECT_EQ(size_sweep(0, 64, 2, 0), (std::vector<std::size_t>{0}));  // nccl-tests loops forever here
  EXPECT_TRUE(size_sweep(64, 8, 2, 0).empty());
  EXPECT_EQ(parse_size("32M"), std::size_t{32} << 20);
  EXPECT_EQ(parse_size("1G"), std::size_t{1} << 30);
  EXPECT_EQ(parse_size("8"), 8u);
  EXPECT_EQ(parse_size("0.5K"), 512u);
  EXPECT_FALSE(parse_size("12X"));
  EXPECT_FALSE(parse_size("-4"));
  EXPECT_FALSE(parse_size(""));
  EXPECT_EQ(parse_collective("all_reduce_perf"), Collective::allreduce);
  EXPECT_EQ(parse_collective("reduce_scatter"), Collective::reducescatter);
  EXPECT_FALSE(parse_collective("gather"));
  EXPECT_EQ(parse_datatype("float"), DataType::float32);
  EXPECT_EQ(parse_datatype("fp16"), DataType::half);
  EXPECT_EQ(name_of(DataType::float64), "double");
}

TEST(IterStats, PercentilesAsNcclTests) {
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);
  auto s = iter_stats(v);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 20);
  EXPECT_EQ(s.p50, 11);  // sorted[n/2]
  EXPECT_EQ(s.p95, 19);  // sorted[min(n-1, (20*95+99)/100-1)] = sorted[18]
  EXPECT_EQ(s.p99, 20);
  EXPECT_DOUBLE_EQ(s.avg, 10.5);
  EXPECT_NEAR(s.cv_pct, 100.0 * std::sqrt(33.25) / 10.5, 1e-9);
  EXPECT_EQ(iter_stats({}).n, 0);
}

TEST(ArrivalSkew, LastRankAndSpread) {
  // Rank 2 arrives 5 us late in 3 of 4 iterations.
  auto s = arrival_skew({{0, 1, 5, 0}, {10, 10, 15, 11}, {20, 20, 25, 20}, {30, 32, 30, 30}});
  EXPECT_EQ(s.last_rank, 2);
  EXPECT_DOUBLE_EQ(s.last_share, 0.75);
  EXPECT_DOUBLE_EQ(s.max_us, 5);
  EXPECT_DOUBLE_EQ(s.median_us, 5);
  ASSERT_EQ(s.mean_lateness_us.size(), 4u);
  EXPECT_DOUBLE_EQ(s.mean_lateness_us[2], 15.0 / 4);
}

TEST(DataCheck, ExpectedOutputsAndWrongCounts) {
  CallArgs a;
  a.coll = Collective::allreduce;
  a.type = DataType::float32;
  a.counts = coll_counts(a.coll, 64, 4, 4);
  // The sum over ranks of everybody's pattern, computed independently here.
  auto want = expected_output(a, 0, 4);
  for (std::size_t i = 0; i < 64; ++i) {
    double sum = 0;
    for (int r = 0; r < 4; ++r) sum += load_element(a.type, input_pattern(a, r, 4).data(), i);
    EXPECT_EQ(load_element(a.type, want.data(), i), sum) << i;
  }
  auto got = want;
  EXPECT_EQ(count_wrong(a, want, got), 0);
  store_element(a.type, got.data(), 7, 1234);
  EXPECT_EQ(count_wrong(a, want, got), 1);
  // sendrecv: rank 0 receives rank n-1's input.
  a.coll = Collective::sendrecv;
  auto in3 = input_pattern(a, 3, 4);
  EXPECT_EQ(expected_output(a, 0, 4), in3);
  // reduce: only the root gets output.
  a.coll = Collective::reduce;
  a.root = 1;
  EXPECT_TRUE(expected_output(a, 0, 4).empty());
  EXPECT_FALSE(expected_output(a, 1, 4).empty());
  // alltoall: rank g's block r is rank r's block g.
  a.coll = Collective::alltoall;
  a.counts = coll_counts(a.coll, 64, 4, 4);
  auto out2 = expected_output(a, 2, 4);
  auto in1 = input_pattern(a, 1, 4);
  for (std::size_t i = 0; i < a.counts.param; ++i)
    EXPECT_EQ(load_element(a.type, out2.data(), 1 * a.counts.param + i), load_element(a.type, in1.data(), 2 * a.counts.param + i));
}

TEST(DataCheck, ElementTypesRoundTripSmallIntegers) {
  for (auto t : {DataType::int8, DataType::uint8, DataType::int32, DataType::uint32, DataType::int64, DataType::uint64,
                 DataType::half, DataType::float32, DataType::float64, DataType::bfloat16}) {
    std::vector<unsigned char> b(8 * size_of(t));
    for (int v = 0; v < 8; ++v) store_element(t, b.data(), static_cast<std::size_t>(v), v * 9);
    for (int v = 0; v < 8; ++v) EXPECT_EQ(load_element(t, b.data(), static_cast<std::size_t>(v)), v * 9) << name_of(t);
  }
  std::vector<unsigned char> b(1);
  store_element(DataType::int8, b.data(), 0, 200);  // wraps like the library's int8 sum
  EXPECT_EQ(load_element(DataType::int8, b.data(), 0), -56);
}

TEST(BenchRender, RowIsByteIdenticalToNcclTests) {
  // dstack-lambda-b200-2node: "           8             2     float     sum      -1    36.50    0.00    0.00       0    36.16    0.00    0.00       0"
  BenchResult r;
  r.options.coll = Collective::allreduce;
  r.nranks = 16;
  r.nprocs = 16;
  BenchRow row;
  row.bytes = 8;
  row.count = 2;
  row.out_of_place.time_us = 36.50;
  row.out_of_place.wrong = 0;
  row.in_place.time_us = 36.16;
  row.in_place.wrong = 0;
  r.rows.push_back(row);
  r.avg_busbw_gbps = 0.0123;
  auto text = ncdx::report::render_bench_nccl_tests(r, {});
  EXPECT_NE(text.find("\n           8             2     float     sum      -1    36.50    0.00    0.00       0    36.16    0.00    0.00       0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 0.0123 \n#\n# Collective test concluded: all_reduce_perf\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong \n"),
            std::string::npos)
      << text;
  // Without -c: N/A, as nccl-tests prints it.
  r.rows[0].out_of_place.wrong.reset();
  text = ncdx::report::render_bench_nccl_tests(r, {});
  EXPECT_NE(text.find("    0.00    N/A"), std::string::npos) << text;
  EXPECT_EQ(ncdx::report::nccl_tests_float(123456.789, 7), " 123457");
  EXPECT_EQ(ncdx::report::nccl_tests_float(12345678.9, 7), "1.2e+07");
  EXPECT_EQ(ncdx::report::nccl_tests_float(1.5, 6), "  1.50");
}
