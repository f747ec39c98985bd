// Effective busbw per collective instance (analyze/timeline/busbw.cc), its expectation
// (expected_busbw.h) and benchmark results as timeline input (inputs.h read_benchmark_results).
// Every expected number is worked out by hand in the comments: busbw = nccl-tests size / time ×
// the factor (allreduce 2(n-1)/n, allgather/reducescatter (n-1)/n); bytes per ns = GB/s.
#include <gtest/gtest.h>

#include "analyze/timeline/expected_busbw.h"
#include "analyze/timeline/inputs.h"
#include "analyze/timeline/json_pull.h"
#include "analyze/timeline/result.h"
#include "model/cost/predict.h"
#include "model/cost/spec_parse.h"

namespace ncdx::analyze::timeline {
namespace {

// `ranks` ranks issue `transfers_ns.size()` collectives; in instance k rank r arrives
// (ranks-1-r) × 100 µs before the last one and all leave together, so the last rank's op lasts
// transfers_ns[k] and the others' longer (they waited).
TraceSet lock_step(const std::string& coll, std::int64_t bytes, int group, const std::vector<Ns>& transfers_ns, int ranks,
                   CommSource src = CommSource::record_param_comms) {
  TraceSet set;
  std::uint32_t id = set.strings.id(coll);
  for (int r = 0; r < ranks; ++r) {
    RankTrace t;
    t.rank = r;
    t.file = "rank" + std::to_string(r) + ".json";
    t.format = "kineto";
    t.comm_source = src;
    Ns at = 0;
    for (Ns transfer : transfers_ns) {
      at += 10'000'000;  // 10 ms apart
      CommOp op;
      op.coll = id;
      op.bytes = bytes;
      op.group_size = group;
      op.end = at;
      op.start = at - transfer - static_cast<Ns>(ranks - 1 - r) * 100'000;
      t.comm.push_back(op);
      t.first = std::min(t.first, op.start);
      t.last = std::max(t.last, op.end);
    }
    set.ranks.push_back(std::move(t));
  }
  return set;
}

const CollectiveStat& only_trace_row(const TimelineResult& r) {
  EXPECT_EQ(r.collectives.size(), 1u);
  return r.collectives.at(0);
}

TEST(TimelineBusbw, AllReduceMedianOverInstancesAgainstAnExpectation) {
  // 4 ranks, 1e8 B (bucket 16MiB-256MiB). Transfers 1.0, 2.0, 0.8 ms: algbw 1e8 B / 1e6 ns =
  // 100, 50, 125 GB/s; × 2·3/4 = 1.5 → busbw 150, 75, 187.5; median 150 GB/s, median time
  // 1000 µs. Expected 200 GB/s: 75 %, 37.5 %, 93.75 % → median 75 %.
  auto set = lock_step("allreduce", 100'000'000, 4, {1'000'000, 2'000'000, 800'000}, 4);
  TimelineOptions o;
  std::vector<std::tuple<std::string, std::uint64_t, int>> asked;
  o.expected_busbw = [&](std::string_view c, std::uint64_t b, int n) -> std::optional<double> {
    asked.emplace_back(std::string(c), b, n);
    return 200.0;
  };
  o.expectation = "fake";
  auto r = analyze_timeline(set, o);
  const auto& c = only_trace_row(r);
  EXPECT_EQ(c.name, "allreduce");
  EXPECT_EQ(c.size_bucket, "16MiB-256MiB");
  EXPECT_EQ(c.busbw_instances, 3u);
  EXPECT_EQ(c.group_size, 4);
  EXPECT_DOUBLE_EQ(*c.transfer_us, 1000.0);
  EXPECT_DOUBLE_EQ(*c.busbw_gbps, 150.0);
  EXPECT_DOUBLE_EQ(*c.expected_busbw_gbps, 200.0);
  EXPECT_DOUBLE_EQ(*c.pct_of_expected, 75.0);
  EXPECT_EQ(r.expectation, "fake");
  // One question per distinct (collective, size, group): the answer is cached.
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], std::make_tuple(std::string("allreduce"), std::uint64_t{100'000'000}, 4));
}

TEST(TimelineBusbw, WithoutAnExpectationOnlyTheMeasurement) {
  // 2 ranks, 8 MiB = 8388608 B in 0.5 ms: 8388608 / 500000 = 16.777216 GB/s × 2·1/2 = 1.
  auto set = lock_step("allreduce", 8 << 20, 2, {500'000}, 2);
  auto r = analyze_timeline(set, {});
  const auto& c = only_trace_row(r);
  EXPECT_DOUBLE_EQ(*c.busbw_gbps, 16.777216);
  EXPECT_FALSE(c.expected_busbw_gbps);
  EXPECT_FALSE(c.pct_of_expected);
  EXPECT_TRUE(r.expectation.empty());
}

TEST(TimelineBusbw, AllGatherAndReduceScatterSizesAsNcclTestsPrintsThem) {
  // all_gather: record_param_comms counts one rank's input, 25e6 B; nccl-tests' size is the
  // gathered 4 × 25e6 = 1e8 B. 1 ms: 100 GB/s × 3/4 = 75 GB/s.
  auto ag = lock_step("allgather", 25'000'000, 4, {1'000'000}, 4);
  TimelineOptions o;
  std::uint64_t seen = 0;
  o.expected_busbw = [&](std::string_view, std::uint64_t b, int) -> std::optional<double> { seen = b; return 100.0; };
  auto r = analyze_timeline(ag, o);
  EXPECT_DOUBLE_EQ(*only_trace_row(r).busbw_gbps, 75.0);
  EXPECT_DOUBLE_EQ(*only_trace_row(r).pct_of_expected, 75.0);
  EXPECT_EQ(seen, 100'000'000u);
  // reduce_scatter from PyTorch: the input is already the total, 1e8 B → 75 GB/s as well.
  auto rs = lock_step("reducescatter", 100'000'000, 4, {1'000'000}, 4);
  EXPECT_DOUBLE_EQ(*only_trace_row(analyze_timeline(rs, {})).busbw_gbps, 75.0);
  // NCCL Inspector's coll_msg_size_bytes is one rank's share for ReduceScatter: 25e6 × 4.
  auto insp = lock_step("reducescatter", 25'000'000, 4, {1'000'000}, 4, CommSource::inspector);
  EXPECT_DOUBLE_EQ(*only_trace_row(analyze_timeline(insp, {})).busbw_gbps, 75.0);
}

TEST(TimelineBusbw, GroupSizeFallsBackToTheRanksOfTheTraceSet) {
  // No "Group size" (gloo spans): the 2 ranks that took part. 1 MiB = 1048576 B in 100 µs:
  // 10.48576 GB/s × 1 = 10.48576.
  auto set = lock_step("allreduce", 1 << 20, -1, {100'000}, 2);
  auto r = analyze_timeline(set, {});
  EXPECT_EQ(only_trace_row(r).group_size, 2);
  EXPECT_DOUBLE_EQ(*only_trace_row(r).busbw_gbps, 10.48576);
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.find("Group size") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(TimelineBusbw, BarrierAndUnsizedOpsHaveNoBusbw) {
  auto set = lock_step("barrier", 4, 4, {100'000}, 4);
  EXPECT_FALSE(only_trace_row(analyze_timeline(set, {})).busbw_gbps);
  auto unsized = lock_step("allreduce", -1, 4, {100'000}, 4);
  EXPECT_FALSE(only_trace_row(analyze_timeline(unsized, {})).busbw_gbps);
}

TEST(TimelineBusbw, GroupSpecPacksGroupsOntoTheFewestNodes) {
  auto spec = model::cost::parse_spec("nodes=2,gpus=8,gpu=H100,nic=8x400G-IB");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(group_spec(*spec, 16)->nodes, 2);
  EXPECT_EQ(group_spec(*spec, -1)->nranks(), 16);
  auto tp = group_spec(*spec, 4);
  EXPECT_EQ(tp->nodes, 1);
  EXPECT_EQ(tp->gpus_per_node, 4);
  EXPECT_EQ(group_spec(*spec, 8)->nodes, 1);
  EXPECT_FALSE(group_spec(*spec, 12));  // not whole nodes
  EXPECT_FALSE(group_spec(*spec, 32));  // more ranks than the cluster
}

TEST(TimelineBusbw, ExpectationIsTheModelsPrediction) {
  auto spec = model::cost::parse_spec("nodes=2,gpus=8,gpu=H100,nic=8x400G-IB");
  ASSERT_TRUE(spec.ok());
  model::cost::NcclVersion v{2, 27, 7};
  TimelineOptions o;
  ASSERT_TRUE(set_expectation(o, *spec, v).is_ok());
  auto whole = model::cost::predict(*spec, model::cost::Collective::AllReduce, 1ull << 30, v);
  ASSERT_TRUE(whole.ok());
  EXPECT_DOUBLE_EQ(*o.expected_busbw("allreduce", 1ull << 30, 16), whole->busbw_gbps);
  auto one_node = model::cost::predict(*group_spec(*spec, 8), model::cost::Collective::AllGather, 1ull << 26, v);
  ASSERT_TRUE(one_node.ok());
  EXPECT_DOUBLE_EQ(*o.expected_busbw("allgather", 1ull << 26, 8), one_node->busbw_gbps);
  EXPECT_FALSE(o.expected_busbw("allreduce", 1ull << 30, 12));
  EXPECT_FALSE(o.expected_busbw("barrier", 8, 16));
  EXPECT_NE(o.expectation.find("nodes=2"), std::string::npos);
}

core::Status read(const std::string& text, TraceSet& set, const std::string& name) {
  MemorySource src(text);
  return read_timeline_input(src, name, set);
}

TEST(TimelineBusbw, NcclTestsJsonRowsJoinTheCollectivesTable) {
  // nccl-tests -J (src/util.cu @ a0b82b2): devices inside "config". 2 devices → 2 ranks.
  const char* j = R"({"version":3,"start_time":"x","args":["./build/all_reduce_perf","-b","1M"],"env":[],"nccl_version":22703,
    "config":{"nthreads":1,"ngpus":2,"devices":[{"rank":0,"hostname":"n1","device":0,"device_info":"NVIDIA H100 80GB HBM3"},
                                                   {"rank":1,"hostname":"n1","device":1,"device_info":"NVIDIA H100 80GB HBM3"}]},
    "results":[{"size":1048576,"count":262144,"type":"float","redop":"sum","root":"    -1",
                "out_of_place":{"time":20.0,"alg_bw":52.43,"bus_bw":52.43,"nwrong":0},
                "in_place":{"time":21.0,"alg_bw":49.93,"bus_bw":49.93,"nwrong":0}}],
    "average_bus_bandwidth":{"bandwidth":51.18,"okay":"unchecked"},"out_of_bounds":{"count":0,"okay":true}})";
  TraceSet set;
  ASSERT_TRUE(read(j, set, "ar.json").is_ok());
  ASSERT_EQ(set.measured.size(), 1u);
  EXPECT_EQ(set.measured[0].coll, "allreduce");
  EXPECT_EQ(set.measured[0].nranks, 2);
  EXPECT_TRUE(set.ranks.empty());
  TimelineOptions o;
  o.expected_busbw = [](std::string_view, std::uint64_t b, int n) -> std::optional<double> {
    return b == 1048576 && n == 2 ? std::optional<double>(104.86) : std::nullopt;
  };
  auto r = analyze_timeline(set, o);
  const auto& c = only_trace_row(r);
  EXPECT_EQ(c.source, "benchmark");
  EXPECT_EQ(c.file, "ar.json");
  EXPECT_DOUBLE_EQ(*c.bytes_per_op, 1048576.0);
  EXPECT_DOUBLE_EQ(*c.transfer_us, 20.0);         // out-of-place
  EXPECT_DOUBLE_EQ(*c.busbw_gbps, 52.43);
  EXPECT_DOUBLE_EQ(*c.pct_of_expected, 50.0);     // 52.43 / 104.86
}

TEST(TimelineBusbw, NcdxBenchJsonRows) {
  // ncdx.bench/1 (report/bench/bench_render.cc bench_json): "bytes", *_gbps keys, ranks[].
  const char* j = R"({"schema": "ncdx.bench/1", "collective": "allgather", "nranks": 4,
    "ranks": [{"rank":0,"host":"h"},{"rank":1,"host":"h"},{"rank":2,"host":"h"},{"rank":3,"host":"h"}],
    "results": [{"bytes": 4096, "count": 256, "out_of_place": {"time_us": 8.0, "algbw_gbps": 0.512, "busbw_gbps": 0.384, "wrong": 0},
                 "in_place": {"time_us": 9.0, "algbw_gbps": 0.455, "busbw_gbps": 0.341, "wrong": 0}}],
    "out_of_bounds": 0, "avg_busbw_gbps": 0.36})";
  TraceSet set;
  ASSERT_TRUE(read(j, set, "bench.json").is_ok());
  ASSERT_EQ(set.measured.size(), 1u);
  EXPECT_EQ(set.measured[0].coll, "allgather");
  EXPECT_EQ(set.measured[0].nranks, 4);
  EXPECT_EQ(set.measured[0].bytes, 4096u);
  EXPECT_DOUBLE_EQ(set.measured[0].time_us, 8.0);
  EXPECT_DOUBLE_EQ(set.measured[0].busbw_gbps, 0.384);
}

TEST(TimelineBusbw, BadBenchmarkInputIsBadInput) {
  TraceSet set;
  auto st = read(R"({"schema": "ncdx.bench/1", "collective": "allreduce", "results": []})", set, "empty.json");
  EXPECT_EQ(st.code(), core::Exit::bad_input);
  TraceSet set2;
  auto st2 = read(R"({"version":3,"args":["x"],"nccl_version":22703,"results":[}])", set2, "broken.json");
  EXPECT_EQ(st2.code(), core::Exit::bad_input);
}

}  // namespace
}  // namespace ncdx::analyze::timeline
