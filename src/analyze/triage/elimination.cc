#include "analyze/triage/elimination.h"

#include <algorithm>

#include "analyze/triage/cascade.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {

std::optional<DeclaredWorld> declared_world(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks,
                                            const std::vector<ProcessFacts>& unranked) {
  // A process's nranks is its largest communicator (facts.cc parse_init): the default group spans
  // the world, so the largest of all processes is the job's size.
  int nranks = 0;
  for (const auto& [r, p] : ranks)
    if (p.nranks) nranks = std::max(nranks, *p.nranks);
  for (const auto& p : unranked)
    if (p.nranks) nranks = std::max(nranks, *p.nranks);
  std::optional<DeclaredWorld> out;
  if (nranks > 0) out = DeclaredWorld{nranks, "NCCL nranks " + std::to_string(nranks)};
  // The environment: one value only (two values are two jobs, or a pasted mix).
  const auto& env = scan.topology.world_sizes;
  if (env.size() > 1) return std::nullopt;
  if (env.size() == 1) {
    const int w = *env.begin();
    if (out && out->size != w) return std::nullopt;  // sources disagree: nothing is declared
    if (!out) out = DeclaredWorld{w, "WORLD_SIZE " + std::to_string(w)};
  }
  if (!out) return std::nullopt;
  // A rank at or above it: the number was a sub-communicator's, or another job's.
  const std::set<int> seen = job_ranks(scan, ranks);
  if (!seen.empty() && (*seen.rbegin() >= out->size || *seen.begin() < 0)) return std::nullopt;
  return out;
}

std::optional<core::Finding> only_peer_left(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                            const std::map<int, ProcessFacts>& ranks,
                                            const std::vector<ProcessFacts>& unranked, const std::set<int>& lost_peer,
                                            const core::Finding& verdict) {
  // Only a verdict that is the victim's own symptom (a lost connection, a timeout) is replaced.
  if (verdict.klass != "network-socket" && verdict.klass != "timeout-hang") return std::nullopt;
  if (lost_peer.size() != 1) return std::nullopt;  // none, or both sides lost the other
  const auto world = declared_world(scan, ranks, unranked);
  if (!world || world->size != 2) return std::nullopt;
  const int victim = *lost_peer.begin();
  if (victim != 0 && victim != 1) return std::nullopt;
  const int other = 1 - victim;
  // The other rank shows no failure of its own: no error, symptom or cause line (a timeout or a
  // lost connection of its own would make it a victim too; an error of its own would have been
  // named before this), no unexplained error line, no catalogued failure text, no timeout fact.
  for (const auto& h : scan.hits) {
    const auto& sig = sigs.all()[h.sig];
    if (sig.role == knowledge::Role::context || sig.by_launcher) continue;
    if (sig.severity < core::Severity::warn && sig.role != knowledge::Role::cause) continue;
    if (std::find(h.ranks.begin(), h.ranks.end(), other) != h.ranks.end()) return std::nullopt;
  }
  for (const auto& e : scan.error_lines)
    if (e.rank == other) return std::nullopt;
  for (const auto& c : scan.catalogued)
    if (c.rank == other && !c.observation) return std::nullopt;
  if (auto it = ranks.find(other); it != ranks.end())
    if (it->second.timeout_seq || it->second.timeout_op || it->second.watchdog_stuck) return std::nullopt;
  // Stopped by the launcher (SIGTERM, SIGINT, SIGHUP) after another rank failed: it was alive and
  // waiting, not gone first.
  if (auto e = scan.exits.find(other); e != scan.exits.end() && e->second.signal &&
                                       (*e->second.signal == 15 || *e->second.signal == 2 || *e->second.signal == 1))
    return std::nullopt;
  const std::string v = "rank " + std::to_string(victim), o = "rank " + std::to_string(other);
  auto f = knowledge::make_finding(
      "triage.waited-for-rank",
      {{"waiting", v},
       {"did", "lost its connection"},
       {"culprit", o},
       {"why", "is the only other rank of the job (" + world->source + ") and printed no failure of its own: " + v +
                   " lost its only peer, so " + o +
                   " left first (it exited early, crashed or hung up the connection; the culprit is found by "
                   "elimination, not from a line of its own)"}},
      "eliminated");
  f.culprit.ranks = {other};
  f.culprit.hosts = hosts_of({other}, scan, ranks, /*all_known=*/true);
  f.evidence = verdict.evidence;
  if (f.evidence.size() > 4) f.evidence.resize(4);
  return f;
}

}  // namespace ncdx::analyze
