#pragma once
// Reads Chrome Trace Event files, streaming: PyTorch profiler (Kineto) traces — an object with
// "traceEvents", one file per rank — and Ray timelines (`ray timeline`, verl's
// ray_kwargs.timeline_json_file) — a bare array of events, one "rank" per Ray worker.
// Formats: ../shared/data/ray_timeline/FORMAT.md; Kineto's writer is libkineto
// ChromeTraceLogger (pytorch/kineto libkineto/src/output_json.cpp).
#include <string>
#include <string_view>

#include "analyze/logs/byte_source.h"
#include "analyze/timeline/trace_model.h"
#include "core/result.h"

namespace ncdx::analyze::timeline {

// Appends what the file holds to `out` (ranks unsorted). Bad JSON: bad_input naming file and line.
// Malformed events (wrong types, negative durations, missing fields) are skipped and counted.
core::Status read_chrome_trace(const std::string& path, TraceSet& out);
core::Status read_chrome_trace(ByteSource& src, const std::string& name, TraceSet& out);

// "allreduce" from "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(...)", "ncclKernel_AllReduce_RING_LL_Sum_float",
// "gloo:all_reduce", "c10d::allreduce_", "nccl:all_reduce", "_allgather_base" …; "" when not a collective.
std::string collective_from_name(std::string_view name);
// Bytes per element of a PyTorch dtype name ("Float", "BFloat16", "c10::Half", "long int"); 0 unknown.
int dtype_bytes(std::string_view dtype);
// The rank in a file name ("rank3.123.pt.trace.json", "rank-12.json", "trace_rank_7"); -1 if none.
int rank_from_file_name(std::string_view path);

}  // namespace ncdx::analyze::timeline
