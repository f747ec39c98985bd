#pragma once
// The result of `ncdx timeline`: a plain struct the reporters (report/timeline_*) render.
// Times in the result are microseconds from the start of the trace set (t0) unless named _ns.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/timeline/trace_model.h"

namespace ncdx::analyze::timeline {

struct TimelineOptions {
  Ns bucket = 0;                      // heatmap bucket (0: about `columns` buckets over the span)
  int columns = 60;
  std::optional<Ns> window_from, window_to;  // relative to t0; events outside are ignored
  std::vector<int> ranks;             // empty: all
  double min_factor = 1.10;           // smallest slowdown reported (issue #16: ≥ 10 %)
  // The busbw (GB/s) a healthy cluster reaches for a collective ("allreduce"), its nccl-tests
  // size and the ranks in its group (-1: the whole cluster); null when there is none. Unset: the
  // measured busbw only. The CLI builds it from --spec (expected_busbw.h); tests pass their own.
  std::function<std::optional<double>(std::string_view coll, std::uint64_t bytes, int nranks)> expected_busbw;
  std::string expectation;            // what expected_busbw is ("ncdx model, NCCL 2.27.7, nodes=2,...")
};

struct RankSummary {
  int rank = -1;
  std::string file, format, rank_from, comm_source;
  bool gpu = false;
  std::size_t comm_ops = 0, steps = 0;
  // HTA's temporal breakdown (hta/analyzers/breakdown_analysis.py get_temporal_breakdown): span =
  // first to last kernel; idle = span − union of all kernels; compute = union of compute kernels;
  // non_compute = span − compute − idle. Overlap as get_comm_comp_overlap: |comm ∩ compute| / comm.
  double span_us = 0, comm_us = 0, compute_us = 0, memory_us = 0, idle_us = 0, non_compute_us = 0, overlap_us = 0;
  std::optional<double> overlap_pct, idle_pct, compute_pct, non_compute_pct, comm_pct;
  double clock_offset_us = 0;
  std::uint64_t events = 0, skipped = 0;
  std::map<std::string, std::uint64_t> skip_reasons;
};

struct Straggler {
  int rank = -1;
  int late_count = 0;           // collectives where this rank arrived last
  int instances = 0;            // collectives matched across ranks
  double mean_delay_us = 0;     // when last: its arrival minus the median arrival
  double wait_caused_us = 0;    // Σ over those collectives of the others' wait for it
  bool significant = false;     // late far more often than chance (1/ranks) and by a clear margin
};

struct Slowdown {
  int rank = -1;                // -1: every rank (a group-wide, communication-side change)
  std::int64_t from_step = 0;   // first slow step (ProfilerStep number, log step, or collective index)
  std::optional<std::int64_t> to_step;  // first step back to normal when transient
  double factor = 1;            // median after / median before
  std::string side;             // "compute", "comm", "step", "link"
  int peer = -1;                // side "link": the other end (global rank) of the slow link
  std::string series;           // "step", "collective:allreduce" …
  std::string axis;             // "step", "collective" or "p2p" (what from_step counts)
  double before_us = 0, after_us = 0;
  bool lasting = true;
};

struct Window {
  double start_us = 0, end_us = 0;
  std::string reason;
  std::string kind;             // "comm-dominated", "straggler"
  int rank = -1;
};

struct CollectiveStat {
  std::string name, size_bucket;
  std::uint64_t ops = 0;        // operations over all ranks
  std::uint64_t instances = 0;  // matched across ranks
  double total_us = 0, mean_us = 0, max_us = 0;
  std::optional<double> bytes_per_op;
  // Effective bus bandwidth (busbw.cc), nccl-tests' definition: algbw = size / time with size as
  // nccl-tests prints it, busbw = algbw × the collective's factor (model::cost::busbw_factor).
  std::string source = "trace";          // "trace" (instances) or "benchmark" (one size row of `file`)
  std::string file;                      // the benchmark output (source "benchmark")
  std::uint64_t busbw_instances = 0;     // instances with a size, a group of ≥ 2 ranks and a time
  std::optional<int> group_size;         // ranks in the collective's group (the most common)
  std::optional<double> transfer_us;     // median transfer time of those instances
  std::optional<double> busbw_gbps;      // median measured busbw
  std::optional<double> expected_busbw_gbps;  // median of the expectation per instance
  std::optional<double> pct_of_expected;      // median of measured / expected per instance × 100
};

struct Heatmap {
  double t0_us = 0;             // absolute start (trace clock) of column 0
  double bucket_us = 0;
  std::vector<int> ranks;
  std::vector<std::vector<float>> comm_frac;  // [rank][bucket] fraction of the bucket in communication
};

struct TimelineResult {
  std::vector<std::string> inputs;
  std::vector<RankSummary> ranks;
  Heatmap heat;
  std::vector<Straggler> stragglers;
  std::vector<Slowdown> slowdowns;
  std::vector<Window> windows;
  std::vector<CollectiveStat> collectives;
  std::vector<std::string> notes;
  std::string expectation;      // TimelineOptions::expectation; empty: no expectation computed
  std::size_t instances = 0;    // collectives matched across ranks
  double span_us = 0;
  std::uint64_t bytes_read = 0, events = 0, skipped = 0;
};

TimelineResult analyze_timeline(TraceSet& set, const TimelineOptions& o);

}  // namespace ncdx::analyze::timeline
