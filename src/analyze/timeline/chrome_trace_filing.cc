// Filing a trace's events into ranks (chrome_trace_filing.h).
#include "analyze/timeline/chrome_trace_filing.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace ncdx::analyze::timeline::chrome {

void RankFiling::skip(const char* why) {
  ++skipped_;
  ++reasons_[why];
}

void RankFiling::take(Ev& e, bool array_form) {
  if (e.ph != 'X') {
    if (e.ph == 0 && !e.bad) skip("missing \"ph\"");
    else if (e.ph == 'B' || e.ph == 'E') ++begin_end_;
    return;  // metadata, instants, flows, counters: not intervals
  }
  if (e.bad) return skip(e.bad);
  if (!e.has_ts) return skip("missing \"ts\"");
  if (!e.has_dur) return skip("missing \"dur\"");
  if (e.dur < 0) return skip("negative \"dur\"");
  if (std::fabs(e.ts) > 9e15 || e.dur > 9e15) return skip("\"ts\" or \"dur\" out of range");
  Ns start = std::llround(e.ts * 1000.0);
  Ns end = start + std::llround(e.dur * 1000.0);
  if (array_form && (e.cat == Cat::ray_task || e.cat == Cat::ray_task_span || e.cat == Cat::ray_other)) {
    ray_ = true;
    if (e.cat == Cat::ray_task || e.cat == Cat::ray_task_span) {
      auto& w = workers_[{e.pid, e.tid}];
      w.pid_name = e.pid_name;
      w.tid_name = e.tid_name;
      (e.cat == Cat::ray_task ? w.tasks.tasks : w.tasks.spans).push_back({start, end, e.func});
      if (e.cat == Cat::ray_task_span) return;
      add_span(w.compute, start, end);
      w.first = std::min(w.first, start);
      w.last = std::max(w.last, end);
    }
    return;
  }
  note_extent(start, end);
  switch (e.cat) {
    case Cat::kernel:
      gpu_ = true;
      if (e.name == Name::nccl_kernel) {
        add_comm(CommSource::nccl_kernel, e, start, end);
        gpu_events_.push_back({start, end, e.corr, 0});
      } else {
        gpu_events_.push_back({start, end, e.corr, 1});
      }
      return;
    case Cat::memcpy:
    case Cat::memset:
      gpu_ = true;
      gpu_events_.push_back({start, end, e.corr, 2});
      return;
    case Cat::runtime:
      if (e.corr >= 0) launches_.push_back({e.corr, start});
      return;
    case Cat::cpu_op:
      if (e.name == Name::record_param_comms) add_comm(CommSource::record_param_comms, e, start, end);
      else if (e.name == Name::c10d) add_comm(CommSource::c10d_op, e, start, end);
      else add_span(cpu_compute_, start, end);
      return;
    case Cat::user_annotation:
      if (e.name == Name::profiler_step) {
        steps_.push_back({e.step, start, end});
      } else if (e.name == Name::gloo) {
        add_comm(CommSource::gloo_span, e, start, end);
      } else if (e.name == Name::nccl_annotation) {
        add_comm(CommSource::nccl_annotation, e, start, end);
      }
      return;
    default:
      return;
  }
}

namespace {

// Peers the execution spans lack (gloo:send/gloo:recv and NCCL kernels name none), from the CPU
// ops that name them, matched by order among the ops of one collective when both lists have as
// many of it (c10d::send and gloo:send come in pairs, one inside the other).
void copy_peers(std::vector<CommOp>& to, const std::vector<CommOp>& from) {
  std::map<std::uint32_t, std::vector<std::int32_t>> peers;  // collective → peers of `from`, in order
  bool any = false;
  for (const CommOp& op : from) {
    peers[op.coll].push_back(op.peer);
    any = any || op.peer >= 0;
  }
  if (!any) return;
  std::map<std::uint32_t, std::size_t> count, next;
  for (const CommOp& op : to) ++count[op.coll];
  for (CommOp& op : to) {
    auto it = peers.find(op.coll);
    if (it == peers.end() || it->second.size() != count[op.coll]) continue;
    std::int32_t p = it->second[next[op.coll]++];
    if (op.peer < 0) op.peer = p;
  }
}

}  // namespace

void RankFiling::note_extent(Ns start, Ns end) {
  first_ = std::min(first_, start);
  last_ = std::max(last_, end);
}

void RankFiling::add_comm(CommSource s, const Ev& e, Ns start, Ns end) {
  CommOp op;
  op.start = start;
  op.end = end;
  op.coll = e.arg_coll ? e.arg_coll : e.coll;
  op.pg = e.pg;
  op.seq = e.seq;
  op.group_size = e.group_size;
  op.peer = e.peer >= 0 ? e.peer : e.p2p && e.name == Name::c10d ? e.arg_peer : -1;
  std::int64_t n = e.in_nelems >= 0 ? e.in_nelems : e.dims_elems;
  if (n >= 0 && e.elem_bytes > 0) op.bytes = n * e.elem_bytes;
  cands_[static_cast<int>(s)].push_back(op);
}

// HTA keeps only the GPU activities launched before the last ProfilerStep began (the last step
// is cut short by the profiler), matched to their launch by "correlation"
// (hta/common/trace.py _filter_irrelevant_gpu_kernels at f4d0062). Same here, so the overlap
// and idle numbers compare; skipped when there are fewer than 2 steps or it would drop most.
void RankFiling::filter_gpu_by_step() {
  std::vector<bool> keep(gpu_events_.size(), true);
  if (steps_.size() >= 2 && !launches_.empty()) {
    Ns cutoff = INT64_MIN;
    for (const auto& st : steps_) cutoff = std::max(cutoff, st.start);
    std::sort(launches_.begin(), launches_.end());
    std::size_t kept = 0;
    for (std::size_t i = 0; i < gpu_events_.size(); ++i) {
      auto it = std::lower_bound(launches_.begin(), launches_.end(), std::make_pair(gpu_events_[i].corr, INT64_MIN));
      keep[i] = it != launches_.end() && it->first == gpu_events_[i].corr && it->second < cutoff;
      kept += keep[i];
    }
    if (kept * 2 < gpu_events_.size()) std::fill(keep.begin(), keep.end(), true);
    else filtered_ = gpu_events_.size() - kept;
  }
  // NCCL kernels were also kept as comm ops, in the same order as their gpu_events_ entries.
  std::vector<CommOp>& nccl = cands_[static_cast<int>(CommSource::nccl_kernel)];
  std::vector<CommOp> kept_ops;
  std::size_t op = 0;
  std::vector<Span> comp, mem;
  for (std::size_t i = 0; i < gpu_events_.size(); ++i) {
    const GpuEvent& g = gpu_events_[i];
    if (g.kind == 0) {
      if (keep[i] && op < nccl.size()) kept_ops.push_back(nccl[op]);
      ++op;
      continue;
    }
    if (!keep[i]) continue;
    (g.kind == 1 ? comp : mem).push_back({g.start, g.end});
  }
  nccl.swap(kept_ops);
  normalise(comp);
  normalise(mem);
  compute_.swap(comp);
  memory_.swap(mem);
}

void RankFiling::finish(const std::string& file, const DistInfo& dist, TraceSet& out) {
  filter_gpu_by_step();
  auto sort_ops = [](std::vector<CommOp>& v) {
    std::stable_sort(v.begin(), v.end(), [](const CommOp& a, const CommOp& b) { return a.start < b.start; });
  };
  if (ray_) {
    std::vector<ray::Worker> ws;
    std::vector<RankTrace> rs;
    for (auto& [key, w] : workers_) {
      if (w.tasks.tasks.empty()) continue;  // a worker with task spans only: nothing executed
      RankTrace r;
      r.rank = static_cast<int>(rs.size());
      r.file = file;
      r.format = "ray";
      // ray.timeline() writes the node's address and "worker:<id>" (the id the worker logs);
      // the dashboard's timeline writes small indexes.
      r.rank_from = w.tid_name != 0 ? "ray " + out.strings.name(w.tid_name) + " on " + out.strings.name(w.pid_name)
                                    : "ray worker (pid " + std::to_string(key.first) + ", tid " + std::to_string(key.second) + ")";
      r.comm_source = CommSource::ray_task;
      r.compute = std::move(w.compute);
      normalise(r.compute);
      r.first = w.first;
      r.last = w.last;
      r.events = events_;
      r.skipped = skipped_;
      r.skip_reasons = reasons_;
      rs.push_back(std::move(r));
      ws.push_back(std::move(w.tasks));
    }
    ray::file_workers(ws, rs);
    for (auto& r : rs) out.ranks.push_back(std::move(r));
    return;
  }
  RankTrace r;
  r.file = file;
  r.format = "kineto";
  r.world_size = dist.world;
  r.backend = dist.backend;
  if (dist.rank >= 0) {
    r.rank = dist.rank;
    r.rank_from = "distributedInfo";
  } else if (int fr = rank_from_file_name(file); fr >= 0) {
    r.rank = fr;
    r.rank_from = "file name";
  }
  r.gpu = gpu_;
  // c10d's peer is a rank of the op's process group, which the op does not name: a global rank
  // only when the job has one group (its default one).
  if (dist.pg_count > 1)
    for (CommOp& op : cands_[static_cast<int>(CommSource::c10d_op)]) op.peer = -1;
  for (int s = 0; s < static_cast<int>(CommSource::count); ++s) {
    if (cands_[s].empty()) continue;
    // The CPU-side ops carry the sizes the kernels may lack: copy them over by order.
    r.comm_source = static_cast<CommSource>(s);
    r.comm = std::move(cands_[s]);
    break;
  }
  sort_ops(r.comm);
  if (r.comm_source == CommSource::nccl_kernel || r.comm_source == CommSource::gloo_span) {
    // Fill sizes the execution spans lack from record_param_comms, matched by order.
    auto& meta = cands_[static_cast<int>(CommSource::record_param_comms)];
    sort_ops(meta);
    if (meta.size() == r.comm.size()) {
      for (std::size_t i = 0; i < meta.size(); ++i) {
        if (r.comm[i].bytes < 0) r.comm[i].bytes = meta[i].bytes;
        if (r.comm[i].group_size < 0) r.comm[i].group_size = meta[i].group_size;
        if (r.comm[i].pg == 0) r.comm[i].pg = meta[i].pg;
        if (r.comm[i].peer < 0) r.comm[i].peer = meta[i].peer;
      }
    }
  }
  for (CommSource from : {CommSource::record_param_comms, CommSource::c10d_op}) {
    if (r.comm_source < from) {
      auto& meta = cands_[static_cast<int>(from)];
      sort_ops(meta);
      copy_peers(r.comm, meta);
    }
  }
  r.compute = gpu_ ? std::move(compute_) : std::move(cpu_compute_);
  normalise(r.compute);
  r.memory = std::move(memory_);
  normalise(r.memory);
  std::sort(steps_.begin(), steps_.end(), [](const Step& a, const Step& b) { return a.number < b.number; });
  r.steps = std::move(steps_);
  r.first = first_;
  r.last = last_;
  r.events = events_;
  r.skipped = skipped_;
  r.skip_reasons = reasons_;
  if (begin_end_) r.skip_reasons["B/E pairs (not read)"] += begin_end_;
  if (filtered_) r.skip_reasons["GPU activity of the last (partial) profiler step (as HTA)"] += filtered_;
  out.ranks.push_back(std::move(r));
}

}  // namespace ncdx::analyze::timeline::chrome
