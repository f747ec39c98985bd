#pragma once
// Reads Chrome Trace Event files, streaming: PyTorch profiler (Kineto) traces — an object with
// "traceEvents", one file per rank — and Ray timelines (`ray timeline`, verl's
// ray_kwargs.timeline_json_file) — a bare array of events, one "rank" per Ray worker.
// Formats: ../shared/data/ray_timeline/FORMAT.md; Kineto's writer is libkineto
// ChromeTraceLogger (pytorch/kineto libkineto/src/output_json.cpp).
#include <string>
#include <string_view>

#include "analyze/logs/byte_source.h"
#include "analyze/timeline/chrome_trace_event.h"  // collective_from_name, dtype_bytes, rank_from_file_name
#include "analyze/timeline/trace_model.h"
#include "core/result.h"

namespace ncdx::analyze::timeline {

// Appends what the file holds to `out` (ranks unsorted). Bad JSON: bad_input naming file and line.
// Malformed events (wrong types, negative durations, missing fields) are skipped and counted.
core::Status read_chrome_trace(const std::string& path, TraceSet& out);
core::Status read_chrome_trace(ByteSource& src, const std::string& name, TraceSet& out);

}  // namespace ncdx::analyze::timeline
