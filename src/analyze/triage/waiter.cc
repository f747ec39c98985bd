#include "analyze/triage/waiter.h"

#include <algorithm>
#include <set>
#include <string>

#include "analyze/triage/cascade.h"
#include "analyze/triage/elimination.h"
#include "core/strings.h"

namespace ncdx::analyze {
using knowledge::Role;

void unname_waiters(core::Finding& v, const std::vector<ScoredFinding>& all, const ScanResult& scan,
                    const knowledge::SignatureSet& sigs, const std::map<int, ProcessFacts>& ranks,
                    const std::vector<ProcessFacts>& unranked) {
  const knowledge::Signature* vsig = sigs.find(v.id);
  if (!vsig || !vsig->waits_for_peer || v.culprit.ranks.empty()) return;
  // Another analysis named ranks from more than the timeout lines: it keeps them.
  for (const auto& f : all)
    if (f.finding.id == "triage.timeout-cascade" && !f.finding.culprit.ranks.empty()) return;

  std::set<int> waiters, own, erred;
  for (const auto& h : scan.hits) {
    const auto& sig = sigs.all()[h.sig];
    if (sig.role == Role::context || sig.by_launcher) continue;
    if (sig.waits_for_peer) waiters.insert(h.ranks.begin(), h.ranks.end());
    if (sig.severity >= core::Severity::error || sig.role == Role::cause) erred.insert(h.ranks.begin(), h.ranks.end());
    if (sig.role == Role::cause && sig.klass != "data-mismatch") own.insert(h.ranks.begin(), h.ranks.end());
  }
  std::set<long long> seqs;
  for (int r : v.culprit.ranks) {
    if (!waiters.count(r) || own.count(r)) return;
    auto p = ranks.find(r);
    if (p != ranks.end() && p->second.watchdog_stuck) return;
    if (p != ranks.end() && p->second.timeout_seq) seqs.insert(*p->second.timeout_seq);
    // A crash signal is its own fault; SIGABRT after its own timeout is the watchdog's, SIGTERM and
    // SIGINT/SIGHUP the launcher stopping the job.
    if (auto e = scan.exits.find(r); e != scan.exits.end() && e->second.signal) {
      const int s = *e->second.signal;
      if (s != 6 && s != 15 && s != 2 && s != 1) return;
    }
  }
  if (seqs.size() > 1) return;
  // The job as the input shows it: its stated size, or else the ranks it shows (job_ranks). When
  // every one of those waited, the one waited for is among them (a job of one process, stated,
  // waited for itself). A single rank shown is no whole job unless stated: a waiting process has a
  // peer, and the peer is the rank that printed nothing.
  const auto declared = declared_world(scan, ranks, unranked);
  const int n = declared ? declared->size : 0;
  std::set<int> world;
  if (n > 0)
    for (int r = 0; r < n; ++r) world.insert(r);
  else
    world = job_ranks(scan, ranks);
  if ((n > 0 || world.size() >= 2) &&
      std::all_of(world.begin(), world.end(), [&](int r) { return waiters.count(r) > 0; }))
    return;

  const std::set<int> victims(v.culprit.ranks.begin(), v.culprit.ranks.end());
  // The waiters' own hosts go with them; a host the line named as the other side stays.
  std::vector<std::string> own_hosts = hosts_of(victims, scan, ranks);
  std::vector<std::string> peers;
  for (const auto& h : v.culprit.hosts)
    if (std::find(own_hosts.begin(), own_hosts.end(), h) == own_hosts.end()) peers.push_back(h);
  const bool others_printed =
      std::any_of(erred.begin(), erred.end(), [&](int r) { return !victims.count(r); });
  const std::string who = rank_words(victims);
  const bool one = victims.size() == 1;
  std::string peer_words = peers.empty() ? "not identified" : "the peer at ";
  for (std::size_t i = 0; i < peers.size(); ++i) peer_words += (i ? ", " : "") + peers[i];
  v.culprit.ranks.clear();
  v.culprit.hosts = peers;
  v.culprit.component = std::string("the process ") + (one ? "it" : "they") + " waited for (" + peer_words + ")";
  v.summary = who + " timed out waiting for a peer " +
              (others_printed ? std::string("that the log does not name") : std::string("that printed nothing")) +
              "; the culprit is the rank " + (one ? "it" : "they") + " waited for (" + peer_words + "), not " + who +
              ", " + (one ? "a victim" : "victims") + ". " + v.summary;
}

void name_unstarted_pods(core::Finding& v, const ScanResult& scan, const knowledge::SignatureSet& sigs) {
  const knowledge::Signature* vsig = sigs.find(v.id);
  if (!vsig || !vsig->waits_for_peer) return;
  std::set<std::string> pods;
  for (const auto& h : scan.hits) {
    if (sigs.all()[h.sig].id != "k8s.pod-not-started") continue;
    for (const auto& ev : h.samples)
      if (auto it = ev.fields.find("pod"); it != ev.fields.end() && !it->second.empty()) pods.insert(it->second);
  }
  if (pods.empty() || pods.size() > 8) return;
  std::string names;
  for (const auto& p : pods) names += (names.empty() ? "" : ", ") + p;
  v.culprit.ranks.clear();
  v.culprit.hosts.assign(pods.begin(), pods.end());
  v.culprit.component = "the pod(s) that never started (" + names + ")";
  v.summary = "kubectl shows " + names + " never started; the timeout is its peers waiting for it. " + v.summary;
}

void name_barrier_absentees(core::Finding& v, const ScanResult& scan, const knowledge::SignatureSet& sigs,
                            const std::map<int, ProcessFacts>& ranks) {
  if (v.id != "torch.store.barrier-timeout") return;
  int world = 0, joined = 0;
  std::set<int> in_barrier, erred;
  for (const auto& h : scan.hits) {
    const auto& sig = sigs.all()[h.sig];
    if (sig.role == Role::context || sig.by_launcher) continue;
    if (sig.id == v.id) {
      in_barrier.insert(h.ranks.begin(), h.ranks.end());
      for (const auto& ev : h.samples) {
        auto w = ev.fields.find("world"), j = ev.fields.find("joined");
        if (w == ev.fields.end() || j == ev.fields.end()) continue;
        world = std::max(world, static_cast<int>(core::parse_int(w->second).value_or(0)));
        joined = std::max(joined, static_cast<int>(core::parse_int(j->second).value_or(0)));
      }
    } else if (sig.severity >= core::Severity::error) {
      erred.insert(h.ranks.begin(), h.ranks.end());
    }
  }
  if (world <= 0 || joined <= 0 || joined >= world) return;
  std::set<int> absent;
  for (const auto& [r, p] : ranks)
    if (r >= 0 && r < world && !in_barrier.count(r) && erred.count(r)) absent.insert(r);
  if (static_cast<int>(absent.size()) != world - joined) return;
  v.culprit.ranks.assign(absent.begin(), absent.end());
  v.culprit.hosts = hosts_of(absent, scan, ranks);
  v.culprit.component.reset();
  v.summary = "Only " + std::to_string(joined) + " of " + std::to_string(world) + " ranks reached the store-based barrier; " +
              rank_words(absent) + " went on without it (it failed later, past the barrier), so " +
              (absent.size() == 1 ? std::string("it is") : std::string("they are")) + " the rank(s) the others waited for. " +
              v.summary;
}

}  // namespace ncdx::analyze
