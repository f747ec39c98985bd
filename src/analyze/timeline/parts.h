#pragma once
// Internal to analyze_timeline: the pieces of the analysis, one file each.
#include <optional>
#include <vector>

#include "analyze/timeline/result.h"

namespace ncdx::analyze::timeline::detail {

// One collective matched across ranks: op indexes per rank (-1 where a rank lacks it).
struct Instance {
  std::uint32_t coll = 0;
  std::vector<int> op;  // [rank index] → index into ranks[i].comm
  int present = 0;
  bool p2p = false;  // a send/recv pair: two ranks, and a send may end before its recv
};

// Matches the k-th op of each (process group, collective) across ranks (every rank issues its
// collectives in the same order — NCCL's and gloo's own requirement); by seq when written. A
// send/recv whose peer the trace names is one transfer of two ranks: the k-th send from a to b
// with the k-th recv on b from a (the order in which NCCL and gloo match point-to-point messages
// between one pair); `send_coll` is the string id of "send" (nullopt: the traces hold none).
std::vector<Instance> match_instances(const std::vector<RankTrace>& ranks, std::optional<std::uint32_t> send_coll);
// Per-rank clock offsets (ns) from the ends of matched blocking collectives, which every rank
// leaves at about the same moment (send/recv pairs are left out: a send may end once buffered);
// only applied when some rank is off by more than 1 ms.
std::vector<Ns> clock_offsets(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst);

// Per instance: who arrived last, by how much over the median arrival, and whether that delay is
// "big": over 4× the job's typical skew (the median over instances of the second-latest arrival
// minus the median, so a straggler does not raise its own bar) and over 20 µs.
struct Lateness {
  int who = -1;          // rank index, -1 on a tie or no delay
  double delay = 0, wait = 0;
  bool big = false;
  Ns first = 0, end = 0; // earliest arrival, latest end
};
std::vector<Lateness> lateness(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst);

std::vector<Straggler> find_stragglers(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst);
std::vector<Slowdown> find_slowdowns(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
                                     const TimelineOptions& o);
// fail_slow_links.cc: send/recv slowdowns seen on both ends of one link (rank, peer) and on no
// other link of either rank: that link (side "link", peer set).
std::vector<Slowdown> find_link_slowdowns(const std::vector<RankTrace>& ranks, const TimelineOptions& o);
std::vector<Window> find_windows(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
                                 const Heatmap& heat, Ns t0);
std::vector<CollectiveStat> collective_stats(const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
                                             const StringTable& names);
// The size bucket of a message ("1MiB-16MiB"; "unknown" below 0), collectives.cc.
const char* size_bucket(std::int64_t bytes);

// busbw.cc: the measured busbw of each stat's instances, and the expectation when one is given.
// Instances are keyed as collective_stats keys them (name, size bucket of the first rank's op).
void add_busbw(std::vector<CollectiveStat>& stats, const std::vector<RankTrace>& ranks, const std::vector<Instance>& inst,
               const StringTable& names, const TimelineOptions& o, std::vector<std::string>& notes);
// One stat per benchmark size row (source "benchmark"), in input order.
std::vector<CollectiveStat> benchmark_stats(const std::vector<MeasuredSize>& rows, const TimelineOptions& o);

}  // namespace ncdx::analyze::timeline::detail
