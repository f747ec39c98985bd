// Per-link fail-slow (parts.h find_link_slowdowns). Only point-to-point operations name their
// other end in a trace (record_param_comms "Dst Rank"/"Src Rank", CommOp::peer); a collective's
// ring or tree neighbours are not written anywhere, so collectives are not attributed to links.
//
// A send/recv lasts until both ends are done: a slower link stretches the operations of both of
// its ends, while a rank that arrives late stretches only its peers' (they wait; it does not). So
// a link (a, b) is named when the change-point detector finds a slowdown in a's operations with b
// and in b's with a, and in none of a's or b's operations with any other peer — and at least one
// such other link exists to compare with (with one peer each, a slow rank and a slow link look the
// same).
#include <cstdint>
#include <map>
#include <optional>

#include "analyze/timeline/change_point.h"
#include "analyze/timeline/parts.h"

namespace ncdx::analyze::timeline::detail {
namespace {

struct LinkSeries {
  std::vector<double> dur;              // ns, in the rank's order of its operations with the peer
  std::optional<ChangePoint> cp;
  std::int64_t first_label = 0;         // label of dur[0] (1 when the warm-up op was dropped)
};

}  // namespace

std::vector<Slowdown> find_link_slowdowns(const std::vector<RankTrace>& ranks, const TimelineOptions& o) {
  std::map<std::pair<int, int>, LinkSeries> links;  // (rank, peer), global ranks
  std::map<int, bool> present;
  for (const RankTrace& r : ranks) {
    present[r.rank] = true;
    for (const CommOp& op : r.comm)
      if (op.peer >= 0 && op.peer != r.rank) links[{r.rank, op.peer}].dur.push_back(static_cast<double>(op.end - op.start));
  }
  for (auto& [key, s] : links) {
    // As fail_slow.cc: the first operation is warm-up (connection set-up), not a level.
    if (s.dur.size() >= 8) {
      s.dur.erase(s.dur.begin());
      s.first_label = 1;
    }
    s.cp = find_slowdown(s.dur, o.min_factor);
  }
  auto slow = [&](int a, int b) {
    auto it = links.find({a, b});
    return it != links.end() && it->second.cp;
  };
  // Whether rank a has a link other than to `except` that did not slow down (nullopt: none).
  auto others_healthy = [&](int a, int except) -> std::optional<bool> {
    std::optional<bool> healthy;
    for (auto it = links.lower_bound({a, INT32_MIN}); it != links.end() && it->first.first == a; ++it) {
      if (it->first.second == except) continue;
      if (it->second.cp) return false;
      healthy = true;
    }
    return healthy;
  };
  std::vector<Slowdown> out;
  for (const auto& [key, s] : links) {
    auto [a, b] = key;
    if (a > b || !s.cp || !present.count(b) || !slow(b, a)) continue;
    auto ha = others_healthy(a, b), hb = others_healthy(b, a);
    if ((ha && !*ha) || (hb && !*hb) || (!ha && !hb)) continue;
    const LinkSeries& t = links.at({b, a});
    Slowdown d;
    d.rank = a;
    d.peer = b;
    d.side = "link";
    d.series = "p2p";
    d.axis = "p2p";
    d.from_step = s.first_label + static_cast<std::int64_t>(s.cp->at);
    d.lasting = !s.cp->back_at;
    if (s.cp->back_at) d.to_step = s.first_label + static_cast<std::int64_t>(*s.cp->back_at);
    d.factor = (s.cp->factor + t.cp->factor) / 2;
    d.before_us = s.cp->before / 1000.0;
    d.after_us = s.cp->after / 1000.0;
    out.push_back(d);
  }
  return out;
}

}  // namespace ncdx::analyze::timeline::detail
