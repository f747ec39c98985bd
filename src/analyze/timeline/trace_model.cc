// Interval helpers and the string table of trace_model.h.
#include "analyze/timeline/trace_model.h"

#include <algorithm>

namespace ncdx::analyze::timeline {

const char* comm_source_name(CommSource s) {
  switch (s) {
    case CommSource::nccl_kernel: return "nccl_kernel";
    case CommSource::gloo_span: return "gloo_span";
    case CommSource::record_param_comms: return "record_param_comms";
    case CommSource::c10d_op: return "c10d_op";
    case CommSource::nccl_annotation: return "nccl_annotation";
    case CommSource::inspector: return "nccl_inspector";
    case CommSource::ray_task: return "ray_task";
    case CommSource::count: break;
  }
  return "none";
}

std::uint32_t StringTable::id(std::string_view s) {
  auto it = ids_.find(std::string(s));
  if (it != ids_.end()) return it->second;
  auto n = static_cast<std::uint32_t>(names_.size());
  names_.emplace_back(s);
  ids_.emplace(names_.back(), n);
  return n;
}

std::optional<std::uint32_t> StringTable::find(std::string_view s) const {
  auto it = ids_.find(std::string(s));
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

void add_span(std::vector<Span>& v, Ns start, Ns end) {
  if (end < start) return;
  if (!v.empty()) {
    Span& b = v.back();
    if (start <= b.end && end >= b.start) {
      b.start = std::min(b.start, start);
      b.end = std::max(b.end, end);
      return;
    }
  }
  v.push_back({start, end});
}

void normalise(std::vector<Span>& v) {
  if (v.empty()) return;
  std::sort(v.begin(), v.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
  std::size_t w = 0;
  for (std::size_t i = 1; i < v.size(); ++i) {
    if (v[i].start <= v[w].end) {
      v[w].end = std::max(v[w].end, v[i].end);
    } else {
      v[++w] = v[i];
    }
  }
  v.resize(w + 1);
}

Ns total(const std::vector<Span>& v) {
  Ns t = 0;
  for (const auto& s : v) t += s.end - s.start;
  return t;
}

Ns intersection(const std::vector<Span>& a, const std::vector<Span>& b) {
  Ns t = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    Ns lo = std::max(a[i].start, b[j].start), hi = std::min(a[i].end, b[j].end);
    if (hi > lo) t += hi - lo;
    if (a[i].end < b[j].end) ++i;
    else ++j;
  }
  return t;
}

std::vector<Span> unite(const std::vector<Span>& a, const std::vector<Span>& b) {
  std::vector<Span> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
             [](const Span& x, const Span& y) { return x.start < y.start; });
  normalise(out);
  return out;
}

}  // namespace ncdx::analyze::timeline
