#pragma once
// What the Chrome trace reader keeps of a file's events (chrome_trace_event.h), filed as they
// arrive and turned into ranks at the end: a Kineto file is one rank (comm ops from the best
// source present — NCCL kernels, record_param_comms, gloo spans, c10d ops — GPU compute and
// memory activity, profiler steps); a Ray timeline is one "rank" per worker (its tasks).
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyze/timeline/chrome_trace_event.h"
#include "analyze/timeline/ray_workers.h"
#include "analyze/timeline/trace_model.h"

namespace ncdx::analyze::timeline::chrome {

// From the trace's "distributedInfo" (Kineto), when present.
struct DistInfo {
  int rank = -1, world = -1;
  int pg_count = -1;  // process groups the job made (distributedInfo.pg_count)
  std::string backend;
};

class RankFiling {
 public:
  void count_event() { ++events_; }
  // An event skipped, and why (counted in the output, never silent).
  void skip(const char* why);
  // Files one complete event; `array_form`: the file is a bare array (a Ray timeline).
  void take(Ev& e, bool array_form);
  // Appends the rank(s) to `out`.
  void finish(const std::string& file, const DistInfo& dist, TraceSet& out);

 private:
  void note_extent(Ns start, Ns end);
  void add_comm(CommSource s, const Ev& e, Ns start, Ns end);
  void filter_gpu_by_step();

  struct GpuEvent {
    Ns start, end;
    std::int64_t corr;
    int kind;  // 0 NCCL kernel, 1 compute kernel, 2 memcpy/memset
  };
  std::vector<GpuEvent> gpu_events_;
  std::vector<std::pair<std::int64_t, Ns>> launches_;  // correlation → launch time
  std::size_t filtered_ = 0;

  struct Worker {
    std::vector<Span> compute;
    ray::Worker tasks;
    std::uint32_t pid_name = 0, tid_name = 0;  // string pid/tid (ray.timeline()): node, worker
    Ns first = INT64_MAX, last = INT64_MIN;
  };

  bool gpu_ = false, ray_ = false;
  std::array<std::vector<CommOp>, static_cast<int>(CommSource::count)> cands_;
  std::vector<Span> compute_, cpu_compute_, memory_;
  std::vector<Step> steps_;
  std::map<std::pair<std::int64_t, std::int64_t>, Worker> workers_;
  Ns first_ = INT64_MAX, last_ = INT64_MIN;
  std::uint64_t events_ = 0, skipped_ = 0, begin_end_ = 0;
  std::map<std::string, std::uint64_t> reasons_;
};

}  // namespace ncdx::analyze::timeline::chrome
