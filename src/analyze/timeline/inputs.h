#pragma once
// One entry point for every `ncdx timeline` input file: the kind is decided by the content (not
// the name): a Chrome trace (Kineto object or Ray array), NCCL Inspector JSON lines (objects with
// "coll_perf"), a training log with per-step times, or benchmark results (nccl-tests text or -J
// JSON, ncdx bench --json).
#include <string>
#include <string_view>

#include "analyze/logs/byte_source.h"
#include "analyze/timeline/trace_model.h"
#include "core/result.h"

namespace ncdx::analyze::timeline {

enum class InputKind { chrome, inspector, log, benchmark };

core::Status read_timeline_input(const std::string& path, TraceSet& out);
core::Status read_timeline_input(ByteSource& src, const std::string& name, TraceSet& out);

// NCCL Inspector (plugins/profiler/inspector/README.md at NCCL 5067397c, format v4.0): one JSON
// object per line per collective: header{id,rank,n_ranks}, coll_perf{coll,coll_sn,
// coll_msg_size_bytes,coll_exec_time_us[,event_trace_ts{coll_start_ts}]}.
core::Status read_inspector_lines(ByteSource& src, const std::string& name, TraceSet& out);
// Step-time lines: verl "step:N ... timing_s/step:S", Megatron "iteration N/ M | ... elapsed time
// per iteration (ms): T", torchtitan "step: N ... tps: T", DeepSpeed "global_step=N,
// ... CurrSamplesPerSec=R". A throughput becomes its inverse (the factor is what matters).
core::Status read_step_log(ByteSource& src, const std::string& name, TraceSet& out);
// nccl-tests results (text table or -J JSON) and `ncdx bench --json` (ncdx.bench/1), read by the
// reader `ncdx model --judge` uses: one MeasuredSize per size row of each run.
core::Status read_benchmark_results(std::string_view text, const std::string& name, TraceSet& out);

}  // namespace ncdx::analyze::timeline
