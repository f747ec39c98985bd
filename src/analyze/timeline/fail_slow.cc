// Fail-slow (parts.h): per rank, a series per step — compute side (step time minus time inside
// collectives: what the rank itself spends) and communication side (time in collectives after
// the last rank arrived: transfer, not waiting) — and change-point detection on each. Without
// steps the axis is the rank's collective sequence (compute side = the gap before each one).
// A communication-side change on most ranks at once is one group-wide slowdown (rank -1).
#include <algorithm>
#include <cmath>

#include "analyze/timeline/change_point.h"
#include "analyze/timeline/parts.h"

namespace ncdx::analyze::timeline::detail {
namespace {

// For each op of each rank: the last arrival among the ranks of its instance.
std::vector<std::vector<Ns>> last_arrivals(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst) {
  std::vector<std::vector<Ns>> la(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    la[r].resize(ranks[r].comm.size());
    for (std::size_t i = 0; i < ranks[r].comm.size(); ++i) la[r][i] = ranks[r].comm[i].start;
  }
  for (const Instance& in : inst) {
    Ns best = INT64_MIN;
    for (std::size_t r = 0; r < ranks.size(); ++r)
      if (in.op[r] >= 0) best = std::max(best, ranks[r].comm[in.op[r]].start);
    for (std::size_t r = 0; r < ranks.size(); ++r)
      if (in.op[r] >= 0) la[r][in.op[r]] = best;
  }
  return la;
}

Slowdown make(int rank, const ChangePoint& cp, const std::vector<std::int64_t>& labels, const char* side,
              std::string series, const char* axis) {
  Slowdown s;
  s.rank = rank;
  s.from_step = labels[cp.at];
  if (cp.back_at) s.to_step = labels[*cp.back_at];
  s.lasting = !cp.back_at;
  s.factor = cp.factor;
  s.side = side;
  s.series = std::move(series);
  s.axis = axis;
  s.before_us = cp.before / 1000.0;
  s.after_us = cp.after / 1000.0;
  return s;
}

}  // namespace

std::vector<Slowdown> find_slowdowns(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
                                     const TimelineOptions& o) {
  std::vector<Slowdown> out, comm_side;
  auto la = last_arrivals(ranks, inst);
  int ranks_with_comm = 0;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankTrace& t = ranks[r];
    if (!t.comm.empty()) ++ranks_with_comm;
    std::vector<double> compute, transfer;
    std::vector<std::int64_t> labels;
    const char* axis = "step";
    if (t.steps.size() >= 6) {
      // Ops are sorted by start; steps by number (and so by time): one sweep.
      std::size_t i = 0;
      for (const Step& st : t.steps) {
        Ns dur = st.end - st.start;
        Ns in_comm = 0, xfer = 0;
        while (i < t.comm.size() && t.comm[i].start < st.start) ++i;
        for (std::size_t j = i; j < t.comm.size() && t.comm[j].start < st.end; ++j) {
          const CommOp& op = t.comm[j];
          Ns e = std::min(op.end, st.end);
          in_comm += std::max<Ns>(0, e - op.start);
          xfer += std::max<Ns>(0, op.end - std::max(op.start, la[r][j]));
        }
        compute.push_back(static_cast<double>(std::max<Ns>(0, dur - in_comm)));
        transfer.push_back(static_cast<double>(xfer));
        labels.push_back(st.number);
      }
    } else if (t.comm.size() >= 7 && t.comm_source != CommSource::ray_task) {
      axis = "collective";
      for (std::size_t j = 1; j < t.comm.size(); ++j) {
        const CommOp& op = t.comm[j];
        compute.push_back(static_cast<double>(std::max<Ns>(0, op.start - t.comm[j - 1].end)));
        transfer.push_back(static_cast<double>(std::max<Ns>(0, op.end - std::max(op.start, la[r][j]))));
        labels.push_back(static_cast<std::int64_t>(j));
      }
    } else if (t.comm_source == CommSource::ray_task && t.comm.size() >= 6) {
      continue;  // Ray: the straggler view covers tasks; durations are not kept per task
    } else {
      continue;
    }
    // The first step is warm-up (allocator, NCCL/gloo connection set-up, autotuning): not a level.
    if (labels.size() >= 8) {
      compute.erase(compute.begin());
      transfer.erase(transfer.begin());
      labels.erase(labels.begin());
    }
    bool log = t.format == "log";
    if (auto cp = find_slowdown(compute, o.min_factor))
      out.push_back(make(t.rank, *cp, labels, log ? "step" : "compute", log ? "step" : axis == std::string("step") ? "step" : "gap", axis));
    if (!log) {
      if (auto cp = find_slowdown(transfer, o.min_factor))
        comm_side.push_back(make(t.rank, *cp, labels, "comm", "collectives", axis));
    }
  }
  // Communication-side changes on most ranks at once: the fabric or a shared link, one entry.
  if (!comm_side.empty() && ranks_with_comm >= 2 &&
      comm_side.size() * 4 >= static_cast<std::size_t>(ranks_with_comm) * 3) {
    std::vector<double> from, factor;
    for (const auto& s : comm_side) {
      from.push_back(static_cast<double>(s.from_step));
      factor.push_back(s.factor);
    }
    Slowdown g = comm_side.front();
    g.rank = -1;
    g.from_step = static_cast<std::int64_t>(median(from));
    g.factor = median(factor);
    out.push_back(g);
  } else {
    out.insert(out.end(), comm_side.begin(), comm_side.end());
  }
  auto links = find_link_slowdowns(ranks, o);
  out.insert(out.end(), links.begin(), links.end());
  std::sort(out.begin(), out.end(), [](const Slowdown& a, const Slowdown& b) {
    if (a.factor != b.factor) return a.factor > b.factor;
    return a.rank < b.rank;
  });
  return out;
}

}  // namespace ncdx::analyze::timeline::detail
