#pragma once
// One Chrome trace event as the reader sees it (chrome_trace_reader.h for the formats): its kind,
// classified from "cat" and "name" the moment the strings go by (their views die at the next
// token), and the few fields the analysis keeps. Which args objects are worth reading is decided
// here too, so the reader skips the rest unread.
#include <cstdint>
#include <string>
#include <string_view>

#include "analyze/timeline/trace_model.h"

namespace ncdx::analyze::timeline {

// "allreduce" from "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(...)", "ncclKernel_AllReduce_RING_LL_Sum_float",
// "gloo:all_reduce", "c10d::allreduce_", "nccl:all_reduce", "_allgather_base" …; "" when not a collective.
std::string collective_from_name(std::string_view name);
// Bytes per element of a PyTorch dtype name ("Float", "BFloat16", "c10::Half", "long int"); 0 unknown.
int dtype_bytes(std::string_view dtype);
// The rank in a file name ("rank3.123.pt.trace.json", "rank-12.json", "trace_rank_7"); -1 if none.
int rank_from_file_name(std::string_view path);

namespace chrome {

enum class Cat : std::uint8_t { unknown, kernel, memcpy, memset, cpu_op, user_annotation, gpu_annotation, runtime, ray_task, ray_task_span, ray_other, other };
enum class Name : std::uint8_t { unknown, other, nccl_kernel, record_param_comms, gloo, c10d, nccl_annotation, profiler_step };

Cat classify_cat(std::string_view c);

struct Ev {
  char ph = 0;
  Cat cat = Cat::unknown;
  Name name = Name::unknown;
  std::uint32_t coll = 0;     // collective (from the name, then args)
  std::int64_t step = -1;
  double ts = 0, dur = 0;
  bool has_ts = false, has_dur = false;
  std::int64_t pid = 0, tid = 0;
  std::uint32_t pid_name = 0, tid_name = 0;  // StringTable ids when pid/tid are strings (Ray)
  // args
  std::uint32_t arg_coll = 0, pg = 0, func = 0;
  std::int64_t in_nelems = -1, seq = -1, dims_elems = -1, corr = -1;
  int elem_bytes = 0;
  std::int32_t group_size = -1;
  std::int32_t peer = -1;     // "Dst Rank"/"Src Rank" of a send/recv (CommOp::peer)
  // c10d::send / c10d::recv_: their third argument, the peer's rank in the process group, from
  // "Concrete Inputs" (written with record_shapes=True; schema `c10d::send(Tensor[] tensors,
  // ProcessGroup process_group, int dst, int tag)`, recv_ the same with src, torch 2.15.0).
  std::int32_t arg_peer = -1;
  bool p2p = false;           // the name is a send or recv
  const char* bad = nullptr;  // why the event is skipped
};

// Sets e.name (and e.step of a ProfilerStep, e.coll of a collective) from the event's "name".
void classify_name(Ev& e, std::string_view n, StringTable& strings);
// Whether the event's "args" object holds anything the analysis reads.
bool interesting_args(const Ev& e);
// Whether of those args only "correlation" is read: a GPU activity or a launch, nothing more.
bool correlation_only(const Ev& e);
// A stable id for a string pid/tid (Ray writes names), never colliding with a small OS id.
std::int64_t hash_id(std::string_view s);

}  // namespace chrome
}  // namespace ncdx::analyze::timeline
