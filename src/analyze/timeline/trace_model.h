#pragma once
// What `ncdx timeline` keeps from its inputs: per rank, the communication operations, the compute
// and memory-copy intervals, the training steps. Times are integer nanoseconds (Kineto writes
// microseconds with a nanosecond fraction). Intervals that overlap the previous one are merged
// while reading, so memory grows with the number of busy/idle transitions, not with events.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ncdx::analyze::timeline {

using Ns = std::int64_t;

struct Span {
  Ns start = 0, end = 0;
};

// Where a rank's communication intervals came from, best first: the GPU kernel is when the
// collective really ran; the gloo worker span is gloo's execution; the CPU ops only say when the
// collective was issued (their duration is the enqueue, unless the call blocked).
enum class CommSource : std::uint8_t { nccl_kernel, gloo_span, record_param_comms, c10d_op, nccl_annotation, inspector, ray_task, count };
const char* comm_source_name(CommSource s);

struct CommOp {
  Ns start = 0, end = 0;
  std::uint32_t coll = 0;       // StringTable id of the normalised collective name ("allreduce")
  std::uint32_t pg = 0;         // StringTable id of the process-group name ("" = unknown)
  std::int64_t seq = -1;        // sequence number when the producer wrote one
  std::int64_t bytes = -1;      // message size (input elements × dtype size); -1 unknown
  std::int32_t group_size = -1;
  // The other end of a send/recv, a global rank: record_param_comms "Dst Rank" of a send, "Src
  // Rank" of a recv (torch/csrc/profiler/util.h kP2pDst/kP2pSrc, torch 2.15.0); -1 otherwise.
  std::int32_t peer = -1;
};

struct Step {
  std::int64_t number = 0;
  Ns start = 0, end = 0;
};

// Interned names (collectives, process groups): a trace set has a handful, events have millions.
class StringTable {
 public:
  StringTable() { id(""); }
  std::uint32_t id(std::string_view s);
  std::optional<std::uint32_t> find(std::string_view s) const;  // without interning it
  const std::string& name(std::uint32_t id) const { return names_[id]; }
  std::size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

// Appends [start,end) to a list of intervals, merging it into the last one when they overlap or
// touch (kernels on a stream arrive in order, so most merge and the list stays short).
void add_span(std::vector<Span>& v, Ns start, Ns end);
// Sorts and merges a list in place: disjoint, ascending.
void normalise(std::vector<Span>& v);
Ns total(const std::vector<Span>& v);
// |a ∩ b| of two normalised lists.
Ns intersection(const std::vector<Span>& a, const std::vector<Span>& b);
// a ∪ b of two normalised lists.
std::vector<Span> unite(const std::vector<Span>& a, const std::vector<Span>& b);

struct RankTrace {
  int rank = -1;
  std::string file;
  std::string format;           // "kineto", "ray", "inspector", "log"
  std::string rank_from;        // "distributedInfo", "file name", "order", "record"
  int world_size = -1;
  std::string backend;          // distributedInfo.backend
  bool gpu = false;             // GPU kernels were seen (HTA's kernel timeline exists)
  CommSource comm_source = CommSource::count;
  std::vector<CommOp> comm;     // from comm_source, sorted by start
  std::vector<Span> compute;    // compute kernels (GPU) or non-communication CPU ops
  std::vector<Span> memory;     // memcpy/memset (GPU)
  std::vector<Step> steps;      // ProfilerStep#N spans or step lines, sorted by number
  Ns first = INT64_MAX, last = INT64_MIN;  // extent of kept events
  Ns clock_offset = 0;          // subtracted from every time after alignment
  std::uint64_t events = 0;     // trace events read
  std::uint64_t skipped = 0;    // malformed events skipped
  std::map<std::string, std::uint64_t> skip_reasons;
  std::uint64_t bytes = 0;      // decoded bytes read
};

// One size row of a benchmark sweep (nccl-tests text or -J JSON, ncdx bench --json), as the
// benchmark measured it: no ranks or times of day, so it joins only the collectives table.
struct MeasuredSize {
  std::string file;
  std::string coll;             // "allreduce" (model::cost::name spelling)
  std::uint64_t bytes = 0;      // nccl-tests' size column
  int nranks = -1;              // ranks of the run; -1 when the output does not list them
  double time_us = 0;           // out-of-place, else in-place (as ncdx model --judge)
  double busbw_gbps = 0;
};

struct TraceSet {
  std::vector<RankTrace> ranks;  // sorted by rank
  std::vector<MeasuredSize> measured;
  StringTable strings;
  std::vector<std::string> notes;  // what the readers want the user to know
};

}  // namespace ncdx::analyze::timeline
