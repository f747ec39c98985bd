// analyze_timeline (result.h): ranks in order, the time window, matching and clock alignment,
// then the per-rank breakdown and heatmap here, and the rest in their own files (parts.h).
#include <algorithm>
#include <cmath>
#include <set>

#include "analyze/timeline/parts.h"

namespace ncdx::analyze::timeline {
namespace {

void assign_ranks(TraceSet& set, std::vector<std::string>& notes) {
  int next = 0;
  for (const auto& r : set.ranks) next = std::max(next, r.rank + 1);
  std::set<int> seen;
  for (auto& r : set.ranks) {
    if (r.rank >= 0 && seen.insert(r.rank).second) continue;
    if (r.rank >= 0) notes.push_back(r.file + ": rank " + std::to_string(r.rank) + " appears twice; counted as rank " + std::to_string(next));
    else notes.push_back(r.file + ": no rank in the trace or its file name; counted as rank " + std::to_string(next));
    r.rank = next++;
    r.rank_from = "order";
    seen.insert(r.rank);
  }
  std::stable_sort(set.ranks.begin(), set.ranks.end(), [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; });
}

void clip_window(RankTrace& r, Ns lo, Ns hi) {
  auto clip = [&](std::vector<Span>& v) {
    std::vector<Span> w;
    for (const auto& s : v) {
      Ns a = std::max(s.start, lo), b = std::min(s.end, hi);
      if (b > a || (b == a && s.start == s.end && a >= lo && a <= hi)) w.push_back({a, b});
    }
    v.swap(w);
  };
  clip(r.compute);
  clip(r.memory);
  r.comm.erase(std::remove_if(r.comm.begin(), r.comm.end(), [&](const CommOp& op) { return op.end < lo || op.start > hi; }), r.comm.end());
  r.steps.erase(std::remove_if(r.steps.begin(), r.steps.end(), [&](const Step& s) { return s.start < lo || s.end > hi; }), r.steps.end());
  r.first = std::max(r.first, lo);
  r.last = std::min(r.last, hi);
}

void shift(RankTrace& r, Ns d) {
  if (d == 0) return;
  for (auto& s : r.compute) s.start -= d, s.end -= d;
  for (auto& s : r.memory) s.start -= d, s.end -= d;
  for (auto& s : r.comm) s.start -= d, s.end -= d;
  for (auto& s : r.steps) s.start -= d, s.end -= d;
  if (r.first != INT64_MAX) r.first -= d;
  if (r.last != INT64_MIN) r.last -= d;
  r.clock_offset = d;
}

std::vector<Span> comm_spans(const RankTrace& r) {
  std::vector<Span> v;
  if (r.comm_source == CommSource::ray_task) return v;
  for (const auto& op : r.comm) add_span(v, op.start, op.end);
  normalise(v);
  return v;
}

RankSummary summarise(const RankTrace& r, const std::vector<Span>& comm) {
  RankSummary s;
  s.rank = r.rank;
  s.file = r.file;
  s.format = r.format;
  s.rank_from = r.rank_from;
  s.comm_source = comm_source_name(r.comm_source);
  s.gpu = r.gpu;
  s.comm_ops = r.comm.size();
  s.steps = r.steps.size();
  s.events = r.events;
  s.skipped = r.skipped;
  s.skip_reasons = r.skip_reasons;
  s.clock_offset_us = static_cast<double>(r.clock_offset) / 1000.0;
  std::vector<Span> all = unite(unite(comm, r.compute), r.memory);
  if (all.empty()) return s;
  Ns span = all.back().end - all.front().start;
  Ns busy = total(all), compute = total(r.compute), c = total(comm);
  Ns idle = span - busy;
  s.span_us = static_cast<double>(span) / 1000.0;
  s.comm_us = static_cast<double>(c) / 1000.0;
  s.compute_us = static_cast<double>(compute) / 1000.0;
  s.memory_us = static_cast<double>(total(r.memory)) / 1000.0;
  s.idle_us = static_cast<double>(idle) / 1000.0;
  s.non_compute_us = static_cast<double>(span - compute - idle) / 1000.0;
  s.overlap_us = static_cast<double>(intersection(comm, r.compute)) / 1000.0;
  if (c > 0) s.overlap_pct = 100.0 * s.overlap_us / s.comm_us;
  if (span > 0) {
    s.idle_pct = 100.0 * s.idle_us / s.span_us;
    s.compute_pct = 100.0 * s.compute_us / s.span_us;
    s.non_compute_pct = 100.0 * s.non_compute_us / s.span_us;
    s.comm_pct = 100.0 * s.comm_us / s.span_us;
  }
  return s;
}

// 1, 2 or 5 × 10^k microseconds at or above x.
Ns nice_bucket(Ns x) {
  Ns us = std::max<Ns>(1, (x + 999) / 1000);
  Ns p = 1;
  while (p * 10 <= us) p *= 10;
  for (Ns m : {1, 2, 5, 10})
    if (m * p >= us) return m * p * 1000;
  return 10 * p * 1000;
}

}  // namespace

TimelineResult analyze_timeline(TraceSet& set, const TimelineOptions& o) {
  TimelineResult res;
  res.notes = set.notes;
  assign_ranks(set, res.notes);
  if (!o.ranks.empty()) {
    std::set<int> keep(o.ranks.begin(), o.ranks.end());
    set.ranks.erase(std::remove_if(set.ranks.begin(), set.ranks.end(), [&](const RankTrace& r) { return !keep.count(r.rank); }),
                    set.ranks.end());
  }
  auto& ranks = set.ranks;
  for (const auto& r : ranks) {
    res.bytes_read += r.bytes;
    res.events += r.events;
    res.skipped += r.skipped;
  }
  Ns t0 = INT64_MAX;
  for (const auto& r : ranks) t0 = std::min(t0, r.first);
  if (t0 == INT64_MAX) t0 = 0;
  if (o.window_from || o.window_to) {
    Ns lo = t0 + o.window_from.value_or(0), hi = o.window_to ? t0 + *o.window_to : INT64_MAX;
    for (auto& r : ranks) clip_window(r, lo, hi);
  }
  auto inst = detail::match_instances(ranks, set.strings.find("send"));
  res.instances = inst.size();
  auto off = detail::clock_offsets(ranks, inst);
  bool shifted = false;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (off[i] != 0) shifted = true;
    shift(ranks[i], off[i]);
  }
  if (shifted)
    res.notes.push_back("clocks differ between ranks by more than 1 ms; aligned on the ends of matched collectives (clock_offset_us per rank)");
  t0 = INT64_MAX;
  Ns t1 = INT64_MIN;
  for (const auto& r : ranks) {
    if (r.first <= r.last) {
      t0 = std::min(t0, r.first);
      t1 = std::max(t1, r.last);
    }
  }
  if (t0 > t1) t0 = t1 = 0;
  res.span_us = static_cast<double>(t1 - t0) / 1000.0;
  // Breakdown and heatmap.
  Ns bucket = o.bucket > 0 ? o.bucket : nice_bucket((t1 - t0) / std::max(1, o.columns));
  constexpr Ns kMaxBuckets = 4000;
  if ((t1 - t0) / bucket > kMaxBuckets) {
    bucket = nice_bucket((t1 - t0) / kMaxBuckets);
    res.notes.push_back("--bucket too small for the span: widened to " + std::to_string(bucket / 1000) + " us");
  }
  std::size_t cols = static_cast<std::size_t>((t1 - t0 + bucket - 1) / bucket);
  if (cols == 0) cols = 1;
  res.heat.t0_us = static_cast<double>(t0) / 1000.0;
  res.heat.bucket_us = static_cast<double>(bucket) / 1000.0;
  for (const auto& r : ranks) {
    auto comm = comm_spans(r);
    res.ranks.push_back(summarise(r, comm));
    std::vector<double> acc(cols, 0);
    for (const auto& s : comm) {
      for (Ns a = s.start; a < s.end;) {
        std::size_t c = static_cast<std::size_t>((a - t0) / bucket);
        if (c >= cols) break;
        Ns edge = t0 + static_cast<Ns>(c + 1) * bucket;
        Ns b = std::min(edge, s.end);
        acc[c] += static_cast<double>(b - a);
        a = b;
      }
    }
    std::vector<float> row(cols);
    for (std::size_t c = 0; c < cols; ++c) row[c] = static_cast<float>(std::min(1.0, acc[c] / static_cast<double>(bucket)));
    res.heat.ranks.push_back(r.rank);
    res.heat.comm_frac.push_back(std::move(row));
  }
  res.stragglers = detail::find_stragglers(ranks, inst);
  res.slowdowns = detail::find_slowdowns(ranks, inst, o);
  res.windows = detail::find_windows(ranks, inst, res.heat, t0);
  res.collectives = detail::collective_stats(ranks, inst, set.strings);
  detail::add_busbw(res.collectives, ranks, inst, set.strings, o, res.notes);
  auto bench = detail::benchmark_stats(set.measured, o);
  res.collectives.insert(res.collectives.end(), bench.begin(), bench.end());
  res.expectation = o.expectation;
  if (o.expected_busbw) {
    std::set<std::string> missing;  // once per collective and group, not per size row
    for (const auto& c : res.collectives)
      if (c.busbw_gbps && !c.expected_busbw_gbps)
        missing.insert(c.name + (c.group_size ? " over " + std::to_string(*c.group_size) + " ranks" : std::string()));
    for (const auto& m : missing)
      res.notes.push_back("busbw: no expectation for " + m + ": the spec's cluster has no such group, or NCCL's model has no algorithm for it");
  }
  for (const auto& r : ranks) {
    if (r.comm.empty() && r.format == "kineto")
      res.notes.push_back(r.file + ": no collectives (no NCCL kernels, gloo spans, record_param_comms or c10d ops)");
  }
  return res;
}

}  // namespace ncdx::analyze::timeline
