#include "analyze/triage/clean_exit.h"

#include <algorithm>
#include <string>

#include "analyze/triage/elimination.h"
#include "analyze/triage/job_ranks.h"
#include "analyze/triage/pair.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
using knowledge::Role;

namespace {

bool all_in(const SignatureHits& h, const std::set<std::size_t>& files) {
  return !files.empty() && !h.samples.empty() && h.count == h.samples.size() &&
         std::all_of(h.samples.begin(), h.samples.end(), [&](const TriageEvent& ev) { return files.count(ev.file) > 0; });
}

// A stop signal is the launcher ending the rest after a failure, not a rank's own fault.
bool stop_signal(int s) { return s == 15 || s == 2 || s == 1; }

// The line names its peer by a loopback address (gloo "[127.0.0.1]:23947"): the peer ran on the
// same host as the rank that printed it.
bool loopback_peer(const TriageEvent& ev) {
  for (const char* k : {"peer", "peer_ip", "remote"})
    if (auto it = ev.fields.find(k); it != ev.fields.end() && !it->second.empty()) {
      std::string_view p = it->second;
      if (p.front() == '[') p.remove_prefix(1);
      return p.starts_with("127.") || p.starts_with("::1]") || p.starts_with("localhost") ||
             p.starts_with("::ffff:127.");
    }
  return false;
}

}  // namespace

std::optional<core::Finding> peer_left_cleanly(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                               const std::map<int, ProcessFacts>& ranks,
                                               const std::vector<ProcessFacts>& unranked,
                                               const std::set<std::size_t>& barrier_files,
                                               const core::Finding& verdict) {
  const auto* vsig = sigs.find(verdict.id);
  if (!vsig || vsig->role != Role::symptom || verdict.klass != "network-socket" || !verdict.culprit.ranks.empty())
    return std::nullopt;
  // The ranks that lost their connection; every such line in view and an orderly close. Any other
  // failure (an error of its own, a timeout) is not this rule's: the cause rules or the pair rule
  // speak for it. The finished node's own agent lines (its lost store) are that node's exit barrier.
  std::set<int> lost;
  bool unranked_loss = false, all_loopback = true;
  for (const auto& h : scan.hits) {
    const auto& sig = sigs.all()[h.sig];
    if (sig.role == Role::context || sig.by_launcher || all_in(h, barrier_files)) continue;
    if (sig.role == Role::symptom && sig.klass == "network-socket") {
      if (h.count != h.samples.size()) return std::nullopt;
      for (const auto& ev : h.samples) {
        if (!orderly_close(ev.text)) return std::nullopt;
        all_loopback &= loopback_peer(ev);
        if (ev.rank) lost.insert(*ev.rank);
        else unranked_loss = true;
      }
      continue;
    }
    if (sig.severity >= core::Severity::warn || sig.role == Role::cause) return std::nullopt;
  }
  if (lost.empty() && !unranked_loss) return std::nullopt;
  for (const auto& [r, p] : ranks)
    if (p.timeout_seq || p.timeout_op || p.watchdog_stuck) return std::nullopt;
  for (const auto& p : unranked)
    if (p.timeout_seq || p.timeout_op || p.watchdog_stuck) return std::nullopt;

  // srun's report: every task it names ended with a non-zero code (no signal, no OOM line), and
  // they are exactly the ranks that lost their connection. The closing peer is none of them.
  // torchrun's failure block is the same for its node: it lists every local worker that exited
  // non-zero, the ones it stopped with SIGTERM included, and not one that exited 0
  // (torch/distributed/elastic/multiprocessing/api.py SubprocessContext._poll, torch 2.15.0); a
  // peer named by a loopback address ran on that node, under that agent.
  std::set<int> srun_failed, torchrun_failed;
  bool srun_codes = true, torchrun_codes = true, torchrun_root = false;
  for (const auto& [r, e] : scan.exits) {
    if (e.signal && !stop_signal(*e.signal)) return std::nullopt;  // a crash is a failure
    const bool ok = e.code && *e.code != 0 && !e.signal;
    if (e.by_srun) srun_failed.insert(r), srun_codes &= ok;
    else if (e.local_rank) torchrun_failed.insert(r), torchrun_codes &= ok, torchrun_root |= e.root_cause;
  }
  std::string how;
  if (!srun_failed.empty() && srun_codes && !unranked_loss && srun_failed == lost)
    how = "srun reported only " + std::string(lost.size() == 1 ? "that task" : "those tasks") +
          " as failed, and srun reports every task that ends with an error code or a signal (not one "
          "that exits 0): the process that closed the connection exited 0";
  else if (srun_failed.empty() && torchrun_root && torchrun_codes && all_loopback && !unranked_loss &&
           torchrun_failed == lost)
    how = "the peer ran on the same host (a loopback address), and torchrun's failure block lists only " +
          std::string(lost.size() == 1 ? "that rank" : "those ranks") +
          ", while it lists every worker of its node that exited non-zero or was stopped (not one that "
          "exited 0): the process that closed the connection exited 0";
  else if (!barrier_files.empty())
    how = "torchrun's agent of another node logged \"Error waiting on exit barrier\", which it reaches "
          "only after every worker of its node exited 0, while this rank still ran";
  if (how.empty()) return std::nullopt;

  const std::string victims = lost.empty() ? "a rank" : rank_words(lost);
  std::string culprit = "The rank that left is not named in the log; the peer's address is the one "
                        "the lost connection names.";
  std::vector<int> culprit_ranks;
  // Named only in a job declared to have two ranks: then the peer is the other one.
  if (lost.size() == 1 && (*lost.begin() == 0 || *lost.begin() == 1))
    if (auto w = declared_world(scan, ranks, unranked); w && w->size == 2) {
      const int other = 1 - *lost.begin();
      culprit_ranks = {other};
      culprit = "The job has two ranks (" + w->source + "), so the rank that left is rank " +
                std::to_string(other) + ".";
    }
  auto f = knowledge::make_finding("triage.peer-exited-early",
                                   {{"lost", victims}, {"how", how}, {"culprit", culprit}});
  f.culprit.ranks = culprit_ranks;
  f.culprit.hosts = culprit_ranks.empty()
                        ? verdict.culprit.hosts
                        : hosts_of({culprit_ranks.begin(), culprit_ranks.end()}, scan, ranks, /*all_known=*/true);
  if (f.culprit.hosts.empty()) f.culprit.hosts = verdict.culprit.hosts;
  f.evidence = verdict.evidence;
  if (f.evidence.size() > 4) f.evidence.resize(4);
  return f;
}

}  // namespace ncdx::analyze
