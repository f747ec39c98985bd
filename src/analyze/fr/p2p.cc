#include "analyze/fr/p2p.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "analyze/fr/analyze.h"
#include "analyze/fr/describe.h"
#include "core/strings.h"
#include "knowledge/findings.h"

namespace ncdx::analyze::fr_detail {
namespace {

struct P2pOp {
  bool send = false;
  int self = 0, peer = 0;  // group ranks, as printed in the profiling name
};

// "nccl:send 1->2" (group rank 1 sends to 2) / "nccl:recv 3<-0" (3 receives from 0).
std::optional<P2pOp> parse_p2p(const FrEntry& e) {
  if (!e.profiling_name) return std::nullopt;
  std::string_view s = *e.profiling_name;
  auto sp = s.find(' ');
  if (sp == std::string_view::npos) return std::nullopt;
  std::string op = e.op();
  std::string_view arrow = op == "send" ? "->" : op == "recv" ? "<-" : "";
  if (arrow.empty()) return std::nullopt;
  std::string_view rest = s.substr(sp + 1);
  auto at = rest.find(arrow);
  if (at == std::string_view::npos) return std::nullopt;
  auto a = core::parse_int(rest.substr(0, at)), b = core::parse_int(rest.substr(at + 2));
  if (!a || !b || *a < 0 || *b < 0 || *a > 1000000 || *b > 1000000) return std::nullopt;
  return P2pOp{op == "send", static_cast<int>(*a), static_cast<int>(*b)};
}

std::optional<int> global_of(const PgView& g, int group_rank) {
  if (group_rank < 0 || static_cast<std::size_t>(group_rank) >= g.group_ranks.size()) return std::nullopt;
  return g.group_ranks[static_cast<std::size_t>(group_rank)];
}

}  // namespace

bool check_p2p(const PgView& g, std::vector<core::Finding>& out) {
  if (g.group_ranks.empty()) return false;  // without pg_config ranks the peers cannot be named
  std::set<int> culprits, waiting;
  std::vector<core::Evidence> ev;
  bool both_pending = false;
  for (const auto& v : g.ranks) {
    const FrEntry* oldest = nullptr;  // the first pending p2p op blocks the ones after it
    for (const FrEntry* e : v.p2p)
      if (!e->completed() && (!oldest || e->record_id.value_or(-1) < oldest->record_id.value_or(-1))) oldest = e;
    if (!oldest) continue;
    auto op = parse_p2p(*oldest);
    if (!op) continue;
    auto peer = global_of(g, op->peer);
    if (!peer) continue;
    waiting.insert(v.rank);
    bool matched = false;
    for (const auto& pv : g.ranks) {
      if (pv.rank != *peer) continue;
      for (const FrEntry* pe : pv.p2p) {
        auto pop = parse_p2p(*pe);
        if (!pe->completed() && pop && pop->send != op->send && pop->peer == op->self) matched = true;
      }
    }
    if (matched) both_pending = true;
    else culprits.insert(*peer);
    if (ev.size() < 8)
      ev.push_back(core::Evidence{v.dump->file, std::nullopt, v.rank, std::nullopt,
                                  oldest->time_created_ns ? std::optional(format_time_ns(*oldest->time_created_ns))
                                                          : std::nullopt,
                                  describe_entry(*oldest) + (matched ? "; the peer has the matching op pending"
                                                                     : "; the peer has no matching op pending")});
  }
  if (waiting.empty()) return false;
  for (int w : waiting) culprits.erase(w);  // a peer that waits itself is reported through its own op
  std::vector<int> w(waiting.begin(), waiting.end()), c(culprits.begin(), culprits.end());
  std::string label = group_label(g.name, g.desc);
  core::Finding f =
      c.empty() ? knowledge::make_finding("fr.p2p-stuck", {{"waiting", format_rank_list(w)}, {"group", label}})
                : knowledge::make_finding("fr.p2p-pending",
                                          {{"waiting", format_rank_list(w)}, {"group", label}, {"culprits", format_rank_list(c)}},
                                          both_pending ? "some-matched" : "");
  f.culprit.ranks = c;
  f.culprit.component = c.empty() ? "NCCL point-to-point transfer" : "peer rank(s) that never posted the op";
  f.evidence = std::move(ev);
  out.push_back(std::move(f));
  return true;
}

}  // namespace ncdx::analyze::fr_detail
