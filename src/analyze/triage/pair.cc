#include "analyze/triage/pair.h"

namespace ncdx::analyze {

bool orderly_close(std::string_view text) {
  for (std::string_view t : {"Connection closed by peer", "Connection closed by remote peer", "] Socket closed",
                             "] Socket unexpectedly closed"})
    if (text.find(t) != std::string_view::npos) return true;
  return false;
}

bool two_rank_job(const std::set<int>& world) { return world == std::set<int>{0, 1}; }

std::string either_of_two(int a, int b, std::string_view about, std::string_view odd) {
  return "Ranks " + std::to_string(a) + " and " + std::to_string(b) + " disagree about " + std::string(about) +
         "; with two ranks the lines are the same whichever one " + std::string(odd) +
         ", so both are named: either may be it.";
}

std::optional<PairTimeout> lost_after_timeout(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                              const std::set<int>& world, const std::set<int>& waiting,
                                              const std::set<int>& timeout_ranks, const std::set<int>& own_cause,
                                              const std::set<int>& crashed) {
  if (!two_rank_job(world) || waiting != world || timeout_ranks.size() != 1 || !own_cause.empty() || !crashed.empty())
    return std::nullopt;
  const int t = *timeout_ranks.begin();
  const int l = *world.begin() == t ? *world.rbegin() : *world.begin();
  // The launcher timed the two exits (torchrun's per-node blocks): a connection lost by a rank that
  // exited before the one that timed out was not closed by that one's exit.
  auto et = scan.exits.find(t), el = scan.exits.find(l);
  if (et != scan.exits.end() && el != scan.exits.end() && et->second.time && el->second.time &&
      *el->second.time < *et->second.time)
    return std::nullopt;
  // Every lost-connection line of the other rank is an orderly close, and every one is in view.
  bool closed = false;
  for (const auto& h : scan.hits) {
    const auto& sig = sigs.all()[h.sig];
    if (sig.role != knowledge::Role::symptom || sig.klass != "network-socket" || !h.ranks.count(l)) continue;
    if (h.count != h.samples.size()) return std::nullopt;
    for (const auto& ev : h.samples)
      if (ev.rank == l) {
        if (!orderly_close(ev.text)) return std::nullopt;
        closed = true;
      }
  }
  if (!closed) return std::nullopt;
  return PairTimeout{t, l};
}

}  // namespace ncdx::analyze
