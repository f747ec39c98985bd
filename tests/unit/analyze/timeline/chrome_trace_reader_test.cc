// Chrome trace reader: Kineto fields, collectives and their args, steps, ranks, Ray arrays, and
// malformed events skipped with a counted reason.
#include <gtest/gtest.h>

#include "analyze/timeline/chrome_trace_reader.h"
#include "analyze/timeline/inputs.h"
#include "analyze/timeline/json_pull.h"

namespace ncdx::analyze::timeline {
namespace {

core::Status read(const std::string& text, TraceSet& set, const std::string& name = "rank5.trace.json") {
  MemorySource src(text);
  return read_timeline_input(src, name, set);
}

TEST(ChromeTrace, NamesOfCollectives) {
  EXPECT_EQ(collective_from_name("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgs4K)"), "allreduce");
  EXPECT_EQ(collective_from_name("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"), "allreduce");
  EXPECT_EQ(collective_from_name("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"), "sendrecv");
  EXPECT_EQ(collective_from_name("gloo:all_reduce"), "allreduce");
  EXPECT_EQ(collective_from_name("c10d::allreduce_"), "allreduce");
  EXPECT_EQ(collective_from_name("c10d::_allgather_base_"), "allgather");
  EXPECT_EQ(collective_from_name("nccl:reduce_scatter"), "reducescatter");
  EXPECT_EQ(collective_from_name("all_to_allv"), "alltoall");
  EXPECT_EQ(dtype_bytes("BFloat16"), 2);
  EXPECT_EQ(dtype_bytes("float"), 4);
  EXPECT_EQ(dtype_bytes("c10::Half"), 2);
  EXPECT_EQ(dtype_bytes("mystery"), 0);
  EXPECT_EQ(rank_from_file_name("/x/rank3.1796184013149560372.pt.trace.json"), 3);
  EXPECT_EQ(rank_from_file_name("trace_rank-12.json.gz"), 12);
  EXPECT_EQ(rank_from_file_name("worker.json"), -1);
}

const char* kKineto = R"J({
  "schemaVersion": 1,
  "distributedInfo": {"backend": "nccl", "rank": 2, "world_size": 4},
  "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 1, "tid": 1, "ts": 1000.0, "dur": 900.0},
    {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 1100, "dur": 5,
     "args": {"Collective name": "allreduce", "In msg nelems": 1024, "Group size": 4, "dtype": "BFloat16", "Process Group Name": "0"}},
    {"ph": "X", "cat": "kernel", "name": "sm90_gemm", "pid": 0, "tid": 7, "ts": 1000, "dur": 300, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgs4K)", "pid": 0, "tid": 20,
     "ts": 1200, "dur": 200, "args": {"stream": 20, "Collective name": "allreduce", "In msg nelems": 1024, "dtype": "BFloat16"}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 7, "ts": 1500, "dur": 50},
    {"ph": "X", "cat": "kernel", "name": "bad", "pid": 0, "tid": 7, "ts": 1600, "dur": -4},
    {"ph": "X", "cat": "kernel", "name": "bad2", "pid": 0, "tid": 7, "ts": "soon", "dur": 4},
    {"ph": "X", "cat": "kernel", "name": "bad3", "pid": 0, "tid": 7, "dur": 4},
    {"ph": "i", "name": "instant", "ts": 1},
    17,
    {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0"}}
  ]
})J";

TEST(ChromeTrace, KinetoTraceOfOneRank) {
  TraceSet set;
  ASSERT_TRUE(read(kKineto, set)) << "read";
  ASSERT_EQ(set.ranks.size(), 1u);
  const RankTrace& r = set.ranks[0];
  EXPECT_EQ(r.rank, 2);
  EXPECT_EQ(r.rank_from, "distributedInfo");
  EXPECT_EQ(r.world_size, 4);
  EXPECT_TRUE(r.gpu);
  EXPECT_EQ(r.comm_source, CommSource::nccl_kernel);
  ASSERT_EQ(r.comm.size(), 1u);
  EXPECT_EQ(r.comm[0].start, 1200000);
  EXPECT_EQ(r.comm[0].end, 1400000);
  EXPECT_EQ(set.strings.name(r.comm[0].coll), "allreduce");
  EXPECT_EQ(r.comm[0].bytes, 2048);
  EXPECT_EQ(r.comm[0].group_size, 4);  // from record_param_comms, matched by order
  ASSERT_EQ(r.compute.size(), 1u);
  EXPECT_EQ(r.compute[0].end, 1300000);
  ASSERT_EQ(r.memory.size(), 1u);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].number, 7);
  EXPECT_EQ(r.skipped, 4u);
  EXPECT_EQ(r.skip_reasons.at("negative \"dur\""), 1u);
  EXPECT_EQ(r.skip_reasons.at("\"ts\" is not a number"), 1u);
  EXPECT_EQ(r.skip_reasons.at("missing \"ts\""), 1u);
  EXPECT_EQ(r.skip_reasons.at("event is not an object"), 1u);
}

// Point-to-point ops name their other end: "Dst Rank" of a send, "Src Rank" of a recv
// (torch/csrc/profiler/util.h kP2pDst/kP2pSrc); the kernels get them from record_param_comms by order.
TEST(ChromeTrace, PeersOfSendAndRecv) {
  TraceSet set;
  ASSERT_TRUE(read(R"J({"distributedInfo": {"rank": 2}, "traceEvents": [
    {"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":1,"tid":1,"ts":10,"dur":2,
     "args":{"Collective name":"send","In msg nelems":8,"dtype":"Float","Group size":4,"Dst Rank":3}},
    {"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":1,"tid":1,"ts":20,"dur":2,
     "args":{"Collective name":"recv","Out msg nelems":8,"dtype":"Float","Group size":4,"Src Rank":"1"}},
    {"ph":"X","cat":"cpu_op","name":"record_param_comms","pid":1,"tid":1,"ts":30,"dur":2,
     "args":{"Collective name":"allreduce","In msg nelems":8,"dtype":"Float","Group size":4,"Dst Rank":-1}},
    {"ph":"X","cat":"kernel","name":"ncclDevKernel_SendRecv(ncclDevKernelArgs4K)","pid":0,"tid":20,"ts":12,"dur":5},
    {"ph":"X","cat":"kernel","name":"ncclDevKernel_SendRecv(ncclDevKernelArgs4K)","pid":0,"tid":20,"ts":22,"dur":5},
    {"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgs4K)","pid":0,"tid":20,"ts":32,"dur":5}
  ]})J", set));
  ASSERT_EQ(set.ranks.size(), 1u);
  const RankTrace& r = set.ranks[0];
  EXPECT_EQ(r.comm_source, CommSource::nccl_kernel);
  ASSERT_EQ(r.comm.size(), 3u);
  EXPECT_EQ(r.comm[0].peer, 3);
  EXPECT_EQ(r.comm[1].peer, 1);
  EXPECT_EQ(r.comm[2].peer, -1);  // a collective; a negative rank is no peer
}

TEST(ChromeTrace, RankFromFileNameWithoutDistributedInfo) {
  TraceSet set;
  ASSERT_TRUE(read(R"({"traceEvents": [{"ph":"X","cat":"user_annotation","name":"gloo:all_reduce","pid":1,"tid":2,"ts":5,"dur":3,
                   "args":{"Input type":["float"],"Input Dims":[[4, 8]]}}]})", set, "/tmp/rank6.123.pt.trace.json"));
  ASSERT_EQ(set.ranks.size(), 1u);
  EXPECT_EQ(set.ranks[0].rank, 6);
  EXPECT_EQ(set.ranks[0].comm_source, CommSource::gloo_span);
  EXPECT_EQ(set.ranks[0].comm[0].bytes, 128);
}

TEST(ChromeTrace, RayTimelineGivesOneRankPerWorker) {
  TraceSet set;
  ASSERT_TRUE(read(R"([
    {"cat":"task:execute","name":"task:execute","pid":0,"tid":1,"ts":100,"dur":50,"ph":"X","args":{"func_or_class_name":"Worker.update"}},
    {"cat":"task:execute","name":"task:execute","pid":0,"tid":2,"ts":100,"dur":80,"ph":"X","args":{"func_or_class_name":"Worker.update"}},
    {"name":"process_name","ph":"M","pid":0,"args":{"name":"Node 10.0.0.1"}}])", set, "timeline.json"));
  ASSERT_EQ(set.ranks.size(), 2u);
  EXPECT_EQ(set.ranks[1].format, "ray");
  EXPECT_EQ(set.ranks[1].comm[0].end, 180000);
}

TEST(ChromeTrace, BadInputIsOneErrorWithTheLine) {
  TraceSet set;
  auto st = read("{\"traceEvents\": [\n{\"ph\": \"X\",\n", set);
  EXPECT_EQ(st.code(), core::Exit::bad_input);
  EXPECT_NE(st.message().find("rank5.trace.json:3:"), std::string::npos) << st.message();
  st = read("{\"traceEvents\": 5}", set);
  EXPECT_EQ(st.code(), core::Exit::bad_input);
  EXPECT_NE(st.message().find("not an array"), std::string::npos) << st.message();
  st = read("{\"foo\": 1}", set);
  EXPECT_NE(st.message().find("no \"traceEvents\""), std::string::npos) << st.message();
  st = read("just some text without steps\n", set);
  EXPECT_EQ(st.code(), core::Exit::bad_input);
}

TEST(Inputs, InspectorLines) {
  TraceSet set;
  std::string text;
  for (int sn = 1; sn <= 3; ++sn)
    for (int r = 0; r < 2; ++r)
      text += R"({"header":{"id":"0x7f","rank":)" + std::to_string(r) + R"(,"n_ranks":2,"nnodes":1},"metadata":{"inspector_output_format_version":"v4.0"},)"
              R"("coll_perf":{"coll":"AllReduce","coll_sn":)" + std::to_string(sn) + R"(,"coll_msg_size_bytes":1048576,"coll_exec_time_us":)" +
              std::to_string(100 + r) + R"(,"coll_busbw_gbs":10.5}})" + "\n";
  ASSERT_TRUE(read(text, set, "nccl-inspector.log"));
  ASSERT_EQ(set.ranks.size(), 2u);
  EXPECT_EQ(set.ranks[1].comm.size(), 3u);
  EXPECT_EQ(set.ranks[1].comm[2].seq, 3);
  EXPECT_EQ(set.ranks[1].comm[0].end - set.ranks[1].comm[0].start, 101000);
  EXPECT_EQ(set.ranks[0].comm[0].bytes, 1048576);
}

TEST(Inputs, StepLogsOfFourFrameworks) {
  TraceSet set;
  ASSERT_TRUE(read("step:1 - actor/loss:0.1 - timing_s/step:12.5 - x:1\nstep:2 - timing_s/step:13.0\n", set, "verl_rank3.log"));
  ASSERT_EQ(set.ranks.size(), 1u);
  EXPECT_EQ(set.ranks[0].rank, 3);
  ASSERT_EQ(set.ranks[0].steps.size(), 2u);
  EXPECT_EQ(set.ranks[0].steps[1].end - set.ranks[0].steps[1].start, 13000000000);
  TraceSet m;
  ASSERT_TRUE(read(" [2024-01-01 10:00:00] iteration       10/    1000 | consumed samples:          640 | elapsed time per iteration (ms): 1234.5 | learning rate: 1.0E-04 |\n", m, "megatron.log"));
  EXPECT_EQ(m.ranks[0].steps[0].number, 10);
  EXPECT_EQ(m.ranks[0].steps[0].end, 1234500000);
  TraceSet t;
  ASSERT_TRUE(read("[rank1]:[titan] 2025-01-01 INFO step: 10  loss:  7.96  memory: 20.35GiB(25.68%)  tps: 6,400  tflops: 62.1  mfu: 6.29%\n", t, "x.log"));
  EXPECT_EQ(t.ranks[0].rank, 1);
  EXPECT_EQ(t.ranks[0].steps[0].number, 10);
  TraceSet d;
  ASSERT_TRUE(read("[Rank 0] epoch=0/micro_step=20/global_step=20, RunningAvgSamplesPerSec=11.9, CurrSamplesPerSec=12.5, MemAllocated=4.1GB\n", d, "ds.log"));
  EXPECT_EQ(d.ranks[0].steps[0].number, 20);
  EXPECT_EQ(d.ranks[0].steps[0].end, 80000000);
}

}  // namespace
}  // namespace ncdx::analyze::timeline
