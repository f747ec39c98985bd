// render_timeline_text and timeline_headline (timeline_render.h): the terminal view.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/term.h"
#include "report/timeline_render.h"

namespace ncdx::report {
namespace {

using namespace ncdx::analyze::timeline;

constexpr std::size_t kMaxRows = 64, kMaxCols = 100;
const char* const kBlocks[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};

std::string ms(double us) {
  char b[64];
  if (us >= 1e6) std::snprintf(b, sizeof b, "%.2f s", us / 1e6);
  else if (us >= 1e3) std::snprintf(b, sizeof b, "%.1f ms", us / 1e3);
  else std::snprintf(b, sizeof b, "%.0f us", us);
  return b;
}

std::string pct(const std::optional<double>& v) {
  if (!v) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", *v);
  return b;
}

std::string pad(std::string s, std::size_t w, bool right = false) {
  if (s.size() >= w) return s;
  return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}

// Rows binned to ≤ kMaxRows (max of the bin: a hot rank stays visible), columns to ≤ kMaxCols (mean).
struct Grid {
  std::vector<std::string> labels;
  std::vector<std::vector<double>> v;
  std::size_t col_group = 1;
};

Grid grid(const Heatmap& h) {
  Grid g;
  std::size_t n = h.comm_frac.size();
  if (n == 0) return g;
  std::size_t cols = h.comm_frac[0].size();
  std::size_t rg = (n + kMaxRows - 1) / kMaxRows;
  g.col_group = (cols + kMaxCols - 1) / kMaxCols;
  std::size_t oc = (cols + g.col_group - 1) / g.col_group;
  for (std::size_t r0 = 0; r0 < n; r0 += rg) {
    std::size_t r1 = std::min(n, r0 + rg);
    std::vector<double> row(oc, 0);
    for (std::size_t c = 0; c < oc; ++c) {
      for (std::size_t r = r0; r < r1; ++r) {
        double s = 0;
        std::size_t k = 0;
        for (std::size_t q = c * g.col_group; q < std::min(cols, (c + 1) * g.col_group); ++q, ++k) s += h.comm_frac[r][q];
        row[c] = std::max(row[c], k ? s / static_cast<double>(k) : 0);
      }
    }
    g.v.push_back(std::move(row));
    g.labels.push_back(r1 - r0 == 1 ? "rank " + std::to_string(h.ranks[r0])
                                    : "ranks " + std::to_string(h.ranks[r0]) + "-" + std::to_string(h.ranks[r1 - 1]));
  }
  return g;
}

// A benchmark row's exact size: "64 MiB", "1.5 KiB", "8 B".
std::string size_text(double bytes) {
  char b[32];
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) bytes /= 1024, ++u;
  std::snprintf(b, sizeof b, bytes == std::floor(bytes) ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return b;
}

std::string gbps(const std::optional<double>& v) {
  if (!v) return "-";
  char b[32];
  std::snprintf(b, sizeof b, *v < 10 ? "%.2f" : "%.1f", *v);  // nccl-tests prints 0.00 for tiny sizes
  return b;
}

// Measured busbw per (collective, size) and, with --spec, the model's expectation.
std::string busbw_table(const TimelineResult& r) {
  bool any = false;
  for (const auto& c : r.collectives) any = any || c.busbw_gbps;
  if (!any) return "";
  bool expect = !r.expectation.empty();
  std::string o = "BUS BANDWIDTH  (nccl-tests busbw = size / time x the collective's factor; time: the last arrival's op, or the benchmark's)\n";
  o += expect ? "  expected: " + r.expectation + "\n" : "  no --spec: expectation not computed\n";
  o += expect ? "  collective      size          ranks  instances       time   busbw GB/s  expected  % of expected\n"
              : "  collective      size          ranks  instances       time   busbw GB/s\n";
  char b[256];
  for (const auto& c : r.collectives) {
    if (!c.busbw_gbps) continue;
    std::string size = c.source == "benchmark" && c.bytes_per_op ? size_text(*c.bytes_per_op) : c.size_bucket;
    std::snprintf(b, sizeof b, "  %-15s %-13s %5s %10llu %10s %12s", c.name.c_str(), size.c_str(),
                  c.group_size ? std::to_string(*c.group_size).c_str() : "-", static_cast<unsigned long long>(c.busbw_instances),
                  ms(c.transfer_us.value_or(0)).c_str(), gbps(c.busbw_gbps).c_str());
    o += b;
    if (expect) {
      std::snprintf(b, sizeof b, " %9s %14s", gbps(c.expected_busbw_gbps).c_str(), pct(c.pct_of_expected).c_str());
      o += b;
    }
    o += "\n";
  }
  return o + "\n";
}

}  // namespace

std::string slowdown_subject(const Slowdown& s) {
  if (s.side == "link") return "link " + std::to_string(s.rank) + "-" + std::to_string(s.peer);
  return s.rank >= 0 ? "rank " + std::to_string(s.rank) : "all ranks";
}

std::string timeline_headline(const TimelineResult& r) {
  std::string out;
  for (const auto& s : r.stragglers) {
    if (!s.significant) continue;
    char b[200];
    std::snprintf(b, sizeof b, "straggler: rank %d (last at %d of %d collectives, %s after the median rank; others waited %s)",
                  s.rank, s.late_count, s.instances, ms(s.mean_delay_us).c_str(), ms(s.wait_caused_us).c_str());
    out = b;
    break;
  }
  if (!r.slowdowns.empty()) {
    const Slowdown& s = r.slowdowns.front();
    char b[200];
    std::snprintf(b, sizeof b, "%sslowdown: %s %.2fx on the %s side from %s %lld%s", out.empty() ? "" : "; ",
                  slowdown_subject(s).c_str(), s.factor, s.side.c_str(),
                  s.axis.c_str(), static_cast<long long>(s.from_step), s.lasting ? "" : " (transient)");
    out += b;
  }
  if (out.empty()) out = "no straggler, no slowdown";
  return out;
}

std::string render_timeline_text(const TimelineResult& r, bool color) {
  std::string o;
  char b[512];
  std::size_t steps = 0;
  for (const auto& s : r.ranks) steps = std::max(steps, s.steps);
  std::size_t rows = std::count_if(r.collectives.begin(), r.collectives.end(), [](const CollectiveStat& c) { return c.source == "benchmark"; });
  if (r.ranks.empty() && rows)
    std::snprintf(b, sizeof b, "ncdx timeline: %zu benchmark size row(s), no traces\n", rows);
  else
    std::snprintf(b, sizeof b, "ncdx timeline: %zu rank(s), %zu step(s), %zu collective(s) matched across ranks, span %s\n",
                  r.ranks.size(), steps, r.instances, ms(r.span_us).c_str());
  o += b;
  o += "  " + core::paint(timeline_headline(r), r.stragglers.empty() || !r.stragglers[0].significant ? (r.slowdowns.empty() ? core::Color::green : core::Color::yellow) : core::Color::yellow, color) + "\n\n";
  Grid g = grid(r.heat);
  if (!g.v.empty()) {
    double col_us = r.heat.bucket_us * static_cast<double>(g.col_group);
    o += "COMMUNICATION HEATMAP  (share of each " + ms(col_us) + " column spent in collectives; time from the first event)\n";
    std::size_t lw = 6;
    for (const auto& l : g.labels) lw = std::max(lw, l.size());
    std::size_t cols = g.v[0].size();
    std::string axis_end = ms(col_us * static_cast<double>(cols));
    o += pad("", lw) + " |0" + pad("", cols > axis_end.size() + 1 ? cols - axis_end.size() - 1 : 0) + axis_end + "\n";
    for (std::size_t i = 0; i < g.v.size(); ++i) {
      o += pad(g.labels[i], lw) + " |";
      for (double v : g.v[i]) {
        int lvl = v <= 0 ? 0 : std::min(8, 1 + static_cast<int>(v * 8));
        std::string cell = kBlocks[lvl];
        core::Color c = v >= 0.75 ? core::Color::red : v >= 0.5 ? core::Color::yellow : core::Color::none;
        o += c == core::Color::none ? cell : core::paint(cell, c, color);
      }
      o += "|\n";
    }
    o += pad("", lw) + "  legend: ' ' 0%  \u2581 <12.5%  \u2582 <25%  \u2583 <37.5%  \u2584 <50%  \u2585 <62.5%  \u2586 <75%  \u2587 <87.5%  \u2588 >=87.5%\n\n";
  }
  if (!r.stragglers.empty()) {
    o += "STRAGGLERS  (arrived last at a collective matched across ranks)\n";
    o += "  rank  late/of    mean delay   others waited  verdict\n";
    for (const auto& s : r.stragglers) {
      std::snprintf(b, sizeof b, "  %-5d %4d/%-5d %12s %14s  %s\n", s.rank, s.late_count, s.instances, ms(s.mean_delay_us).c_str(),
                    ms(s.wait_caused_us).c_str(), s.significant ? "STRAGGLER" : "chance");
      o += s.significant ? core::paint(b, core::Color::yellow, color) : std::string(b);
    }
    o += "\n";
  }
  // Benchmark results alone have no ranks: nothing to say about slowdowns, windows or overlap.
  if (!r.ranks.empty()) {
    o += "SLOWDOWNS (fail-slow: change points of per-step compute and communication time)\n";
    if (r.slowdowns.empty()) o += "  none >= 10%\n";
    for (const auto& s : r.slowdowns) {
      std::snprintf(b, sizeof b, "  %s: %.2fx on the %s side from %s %lld%s (%s -> %s per %s)\n",
                    slowdown_subject(s).c_str(), s.factor, s.side.c_str(), s.axis.c_str(),
                    static_cast<long long>(s.from_step),
                    s.lasting ? ", lasting" : (", transient, back at " + std::to_string(s.to_step.value_or(0))).c_str(),
                    ms(s.before_us).c_str(), ms(s.after_us).c_str(), s.axis.c_str());
      o += b;
    }
    o += "\n";
    if (!r.windows.empty()) {
      o += "BOTTLENECK WINDOWS\n";
      for (const auto& w : r.windows) {
        std::snprintf(b, sizeof b, "  %10s - %-10s %s\n", ms(w.start_us).c_str(), ms(w.end_us).c_str(), w.reason.c_str());
        o += b;
      }
      o += "\n";
    }
    o += "OVERLAP AND IDLE PER RANK  (% of the rank's active span; overlap = comm time hidden under compute)\n";
    o += "  rank  source              comm%  compute%  idle%  other%  overlap%  skipped\n";
    for (const auto& s : r.ranks) {
      std::snprintf(b, sizeof b, "  %-5d %-18s %6s %9s %6s %7s %9s  %llu\n", s.rank, s.comm_source.c_str(), pct(s.comm_pct).c_str(),
                    pct(s.compute_pct).c_str(), pct(s.idle_pct).c_str(), pct(s.non_compute_pct).c_str(), pct(s.overlap_pct).c_str(),
                    static_cast<unsigned long long>(s.skipped));
      o += b;
    }
    o += "\n";
  }
  bool traced = std::any_of(r.collectives.begin(), r.collectives.end(), [](const CollectiveStat& c) { return c.source == "trace"; });
  if (traced) {
    o += "TOP COLLECTIVES  (by total time over all ranks)\n";
    o += "  collective      size           ops   instances      total       mean        max\n";
    for (const auto& c : r.collectives) {
      if (c.source != "trace") continue;  // benchmark rows: in the bus bandwidth table only
      std::snprintf(b, sizeof b, "  %-15s %-12s %6llu %10llu %10s %10s %10s\n", c.name.c_str(), c.size_bucket.c_str(),
                    static_cast<unsigned long long>(c.ops), static_cast<unsigned long long>(c.instances), ms(c.total_us).c_str(),
                    ms(c.mean_us).c_str(), ms(c.max_us).c_str());
      o += b;
    }
    o += "\n";
  }
  o += busbw_table(r);
  std::map<std::string, std::uint64_t> skipped;
  for (const auto& s : r.ranks)
    for (const auto& [k, v] : s.skip_reasons) skipped[k] += v;
  if (!skipped.empty()) {
    o += "SKIPPED EVENTS\n";
    for (const auto& [k, v] : skipped) o += "  " + std::to_string(v) + "  " + k + "\n";
    o += "\n";
  }
  for (const auto& n : r.notes) o += "note: " + n + "\n";
  return o;
}

}  // namespace ncdx::report
