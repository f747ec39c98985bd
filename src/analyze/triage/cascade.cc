#include "analyze/triage/cascade.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>

#include "analyze/triage/job_ranks.h"
#include "analyze/triage/pair.h"
#include "analyze/triage/store_rendezvous.h"
#include "core/strings.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {

namespace {
using knowledge::Role;

// What a peer prints when the rank it exchanges data with failed or never came: a timeout or a
// lost connection (symptoms of the waiting side, not causes).
bool comm_symptom(const knowledge::Signature& sig) {
  return sig.role == Role::symptom && (sig.klass == "timeout-hang" || sig.klass == "network-socket");
}

const char* signal_name(int s) {
  switch (s) {
    case 4: return "SIGILL";
    case 6: return "SIGABRT";
    case 7: return "SIGBUS";
    case 8: return "SIGFPE";
    case 9: return "SIGKILL";
    case 11: return "SIGSEGV";
    default: return nullptr;  // SIGTERM/SIGINT/SIGHUP: the launcher stopping the job, not a crash
  }
}

std::set<int> minus(const std::set<int>& a, const std::set<int>& b) {
  std::set<int> out;
  for (int x : a)
    if (!b.count(x)) out.insert(x);
  return out;
}

// Ranks whose value differs from the strict majority's (more than half of the ranks that have one).
template <class Key>
std::set<int> odd_ones(const std::map<int, Key>& per_rank, Key* majority = nullptr) {
  std::map<Key, int> count;
  for (const auto& [r, k] : per_rank) ++count[k];
  if (count.size() < 2) return {};
  auto best = std::max_element(count.begin(), count.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  if (best->second * 2 <= static_cast<int>(per_rank.size())) return {};  // no majority: undecidable
  std::set<int> out;
  for (const auto& [r, k] : per_rank)
    if (!(k == best->first)) out.insert(r);
  if (majority) *majority = best->first;
  return out;
}

// The first line that showed a store fact, as evidence.
core::Evidence store_evidence(const StoreSide& side, const ScanResult& scan) {
  return core::Evidence{scan.input.files.at(side.file), side.line,
                        side.ranks.empty() ? std::nullopt : std::optional<int>(*side.ranks.begin()), std::nullopt,
                        std::nullopt, side.text};
}

// torchrun on several nodes: each node's agent prints a failure block listing the workers of that
// node that did not exit 0 ("rank : 5 (local_rank: 1)"). Its ranks are contiguous (torch
// elastic assigns a node's workers global ranks base + local_rank, torch/distributed/elastic/
// agent/server/api.py _assign_worker_ranks), so an entry gives its node's base = rank -
// local_rank. With blocks of two or more nodes, as many workers on every node (the gcd of the
// gaps between bases, at least the highest local rank + 1) and a block from every node of the
// job (nodes x workers = the job's ranks), a silent rank that is not in its node's block exited 0.
// Where a node printed no block (all its workers exited 0) the workers per node cannot be told
// (gaps of 4 may be two nodes of 2), so nothing is concluded.
// -> those ranks, each with its node's host (from the block's "host :" lines) where one is given.
std::map<int, std::optional<std::string>> torchrun_nodes_left(const ScanResult& scan, const std::set<int>& silent,
                                                              const std::set<int>& world) {
  std::set<int> bases;
  std::map<int, std::optional<std::string>> host_of_base;
  int max_local = 0;
  for (const auto& [r, e] : scan.exits) {
    if (!e.local_rank || *e.local_rank < 0 || *e.local_rank > r) return {};
    bases.insert(r - *e.local_rank);
    if (e.host && *e.host != "localhost") host_of_base[r - *e.local_rank] = e.host;
    max_local = std::max(max_local, *e.local_rank);
  }
  if (bases.size() < 2) return {};
  int nproc = 0;
  for (auto it = std::next(bases.begin()); it != bases.end(); ++it) nproc = std::gcd(nproc, *it - *std::prev(it));
  if (nproc <= max_local || *bases.begin() != 0 || world.empty() || *world.begin() != 0 ||
      static_cast<long long>(bases.size()) * nproc != *world.rbegin() + 1LL)
    return {};
  std::map<int, std::optional<std::string>> left;
  for (int r : silent)
    if (!scan.exits.count(r) && bases.count(r - r % nproc)) {
      auto h = host_of_base.find(r - r % nproc);
      left[r] = h == host_of_base.end() ? std::nullopt : h->second;
    }
  return left;
}

}  // namespace

namespace {

// A two-rank verdict (pair.h) ahead of every other finding: both ranks and their hosts.
void lead_with_pair(std::vector<ScoredFinding>& all, core::Finding f, const std::set<int>& both,
                    const ScanResult& scan, const std::map<int, ProcessFacts>& ranks) {
  f.culprit.ranks.assign(both.begin(), both.end());
  f.culprit.hosts = hosts_of(both, scan, ranks, /*all_known=*/true);
  const double score = all.front().score + 1;
  all.insert(all.begin(), ScoredFinding{std::move(f), score});
}

}  // namespace

void attribute_cause(std::vector<ScoredFinding>& all, const ScanResult& scan, const knowledge::SignatureSet& sigs,
                     const std::map<int, ProcessFacts>& ranks) {
  if (all.empty() || all.front().finding.severity < core::Severity::warn) return;
  const std::set<int> world = job_ranks(scan, ranks);
  if (world.size() < 2) return;

  // Who reported what: victims' collective errors, and each rank's own errors. A rank's own error
  // is a signature of role `cause` (it names a failure by itself: an application exception, a CPU
  // OOM, an IB or CUDA error), even at severity info (python.exception: a bare exception is no
  // verdict alone, but it is the cause when the rank's peers then fail waiting for it). Symptoms
  // that are not timeouts or lost connections (ncclRemoteError, "a remote process exited") are
  // what a victim reports and are nobody's own error.
  std::set<int> waiting, erred, own_cause, timeout_ranks;
  std::map<int, std::vector<std::string>> own;  // rank -> ids of its own error signatures
  bool timed_out = false;
  for (const auto& h : scan.hits) {
    const auto& sig = sigs.all()[h.sig];
    if (sig.role == Role::context || sig.by_launcher) continue;
    if (sig.severity < core::Severity::error && sig.role != Role::cause) continue;
    erred.insert(h.ranks.begin(), h.ranks.end());
    if (comm_symptom(sig)) {
      waiting.insert(h.ranks.begin(), h.ranks.end());
      timed_out |= sig.klass == "timeout-hang";
      if (sig.klass == "timeout-hang") timeout_ranks.insert(h.ranks.begin(), h.ranks.end());
      continue;
    }
    if (sig.role != Role::cause) continue;
    if (sig.klass == "data-mismatch") continue;  // every rank reports a mismatch: the fingerprints decide
    // An error every rank (or most) printed does not single one out.
    if (h.ranks.size() > 1 && h.ranks.size() * 2 >= world.size()) continue;
    for (int r : h.ranks) own[r].push_back(sig.id), own_cause.insert(r);
  }

  core::Finding& v = all.front().finding;
  // A verdict from a signature of role `cause` (an IB error, an ECC error, a bootstrap rank-count
  // mismatch) names the failure itself and stays as it is; only a collective mismatch (every rank
  // reports it, the fingerprints say which rank was odd) has its culprit narrowed. Otherwise only a
  // verdict that names nobody, a symptom, a launcher line, or only ranks that were themselves
  // waiting (and printed no error of their own) is re-attributed: the derived timeout cascade that
  // already names a rank that was not waiting (opCount behind, no timeout report) keeps its own,
  // fuller account.
  const knowledge::Signature* vsig = sigs.find(v.id);
  const bool cause_verdict = vsig && vsig->role == Role::cause;
  bool weak = cause_verdict ? vsig->klass == "data-mismatch"
                            : v.culprit.ranks.empty() || (vsig && vsig->by_launcher) || (vsig && vsig->role == Role::symptom);
  if (!weak && !cause_verdict)
    weak = std::all_of(v.culprit.ranks.begin(), v.culprit.ranks.end(),
                       [&](int r) { return waiting.count(r) > 0 && !own_cause.count(r); });
  // A derived account of the job (the timeout cascade naming a rank that did not report the
  // timeout) says whom the others waited for, not why: when that rank printed an error of its own
  // (an application exception, an OOM), that error is the cause.
  if (!weak && !vsig)
    weak = std::any_of(v.culprit.ranks.begin(), v.culprit.ranks.end(), [&](int r) { return own_cause.count(r) > 0; });
  // A symptom line that names other ranks than the one that printed it (PyTorch's desync report
  // "[11] finished collective #7, but didn't join collective #8", monitored_barrier's "Rank 1
  // failed to pass") is the job's own account of whom it waited for: it stays, unless a named
  // rank was itself waiting or has an error of its own.
  if (weak && vsig && vsig->role == Role::symptom && !v.culprit.ranks.empty()) {
    std::set<int> printers;
    for (const auto& h : scan.hits)
      if (sigs.all()[h.sig].id == vsig->id) printers.insert(h.ranks.begin(), h.ranks.end());
    weak = !std::all_of(v.culprit.ranks.begin(), v.culprit.ranks.end(), [&](int r) {
      return !printers.count(r) && !waiting.count(r) && !own_cause.count(r);
    });
  }
  if (!weak) return;
  const std::string victims_did = timed_out ? "timed out" : "lost their connection";
  // torchrun's failure block (it names each rank's local_rank) means the ranks are clients of the
  // agent's store, so no rank's own process serves it (torch/distributed/rendezvous.py,
  // _create_c10d_store).
  const bool agent_store = std::any_of(scan.exits.begin(), scan.exits.end(),
                                       [](const auto& e) { return e.second.local_rank.has_value(); });
  const std::optional<int> awaited = awaited_rank(scan.store, agent_store);

  // 0. The store rendezvous: a process that looked for the store where nobody else did set
  // MASTER_ADDR/MASTER_PORT differently; the others' store timeouts follow from it.
  if (auto m = store_endpoint_mismatch(scan.store, awaited)) {
    std::set<int> others = minus(m->reached->ranks, m->culprits);
    ScoredFinding sf;
    sf.finding = knowledge::make_finding(
        "triage.store-endpoint-mismatch",
        {{"bad", m->bad},
         {"good", m->good},
         {"culprit", m->culprits.empty() ? std::string("a process whose lines name no rank") : rank_words(m->culprits)},
         {"others", others.empty() ? std::string("other processes") : rank_words(others)}},
        m->culprits.empty() ? "unnamed" : "named");
    auto& f = sf.finding;
    f.culprit.ranks.assign(m->culprits.begin(), m->culprits.end());
    f.culprit.hosts = hosts_of(m->culprits, scan, ranks);
    // Where the fault is even when no rank can be named: the process that connects there.
    f.culprit.component = "store client connecting to " + m->bad;
    for (const StoreSide* side : {m->tried, m->reached}) f.evidence.push_back(store_evidence(*side, scan));
    sf.score = all.front().score + 1;
    all.insert(all.begin(), std::move(sf));
    return;
  }
  // With two ranks, the server and its only client: either may have the wrong endpoint.
  if (auto p = store_pair(scan.store, agent_store, world)) {
    core::Finding f = knowledge::make_finding(
        "triage.store-endpoint-pair",
        {{"server", rank_words({p->server})},
         {"client", rank_words({p->client})},
         {"endpoint", p->endpoint},
         {"expected", "2"},
         {"either", either_of_two(p->server, p->client, "where the c10d store is",
                                  "was given the wrong MASTER_ADDR/MASTER_PORT")}});
    f.culprit.component = "store endpoint " + p->endpoint;
    for (const StoreSide* side : {p->server_line, p->tried}) f.evidence.push_back(store_evidence(*side, scan));
    lead_with_pair(all, std::move(f), {p->server, p->client}, scan, ranks);
    return;
  }
  if (auto a = store_server_alone(scan.store, agent_store)) {
    std::set<int> culprit;
    if (a->server) culprit.insert(*a->server);
    ScoredFinding sf;
    sf.finding = knowledge::make_finding(
        "triage.store-server-alone",
        {{"endpoint", a->endpoint},
         {"clients", a->clients.empty() ? std::string("the clients") : rank_words(a->clients)},
         {"server", culprit.empty() ? std::string("the store server") : rank_words(culprit)},
         {"expected", std::to_string(a->expected)}},
        a->server_line->ranks.empty() ? "inferred" : "named");
    auto& f = sf.finding;
    f.culprit.ranks.assign(culprit.begin(), culprit.end());
    f.culprit.hosts = hosts_of(culprit, scan, ranks);
    f.culprit.component = "store server the clients look for at " + a->endpoint;
    for (const StoreSide* side : {a->server_line, a->tried}) f.evidence.push_back(store_evidence(*side, scan));
    sf.score = all.front().score + 1;
    all.insert(all.begin(), std::move(sf));
    return;
  }

  // 1. Collective fingerprints (mismatch reports): the odd rank issued the odd call.
  if (scan.fingerprints.size() >= 3) {
    std::map<int, std::string> keys;
    for (const auto& [r, fp] : scan.fingerprints) keys[r] = fp.key();
    std::string maj;
    auto odd = odd_ones(keys, &maj);
    if (!odd.empty()) {
      int maj_rank = *odd.begin();
      for (const auto& [r, k] : keys)
        if (k == maj) {
          maj_rank = r;
          break;
        }
      const Fingerprint& m = scan.fingerprints.at(maj_rank);
      const Fingerprint& o = scan.fingerprints.at(*odd.begin());
      std::string diff;
      auto add = [&](const char* name, const std::string& a, const std::string& b) {
        if (a != b) diff += std::string(diff.empty() ? "" : ", ") + name + "=" + a + " instead of " + b;
      };
      add("OpType", o.op, m.op);
      add("TensorShape", o.shape, m.shape);
      add("TensorDtypes", o.dtypes, m.dtypes);
      add("SequenceNumber", o.sequence, m.sequence);
      // Prefer the mismatch signature's own finding as the verdict (its text and fixes).
      auto it = std::find_if(all.begin(), all.end(), [](const ScoredFinding& f) { return f.finding.klass == "data-mismatch"; });
      if (it != all.end()) std::rotate(all.begin(), it, it + 1);
      core::Finding& f = all.front().finding;
      f.klass = "data-mismatch";
      f.culprit.ranks.assign(odd.begin(), odd.end());
      f.culprit.hosts = hosts_of(odd, scan, ranks);
      f.summary = rank_words(odd) + " issued a different collective than the other " +
                  std::to_string(keys.size() - odd.size()) + " ranks that reported their fingerprint (" + diff +
                  "); the others' mismatch and timeout errors follow from it. " + f.summary;
      return;
    }
  }

  // A two-rank job whose two fingerprints differ: each report is the other's mirror image, no
  // majority. (Two fingerprints of a larger job, one pasted report, keep the report's ranks.)
  if (cause_verdict && vsig->klass == "data-mismatch" && two_rank_job(world) && scan.fingerprints.size() == 2 &&
      scan.fingerprints.begin()->second.key() != scan.fingerprints.rbegin()->second.key()) {
    core::Finding& f = all.front().finding;
    const int a = scan.fingerprints.begin()->first, b = scan.fingerprints.rbegin()->first;
    f.culprit.ranks = {a, b};
    f.summary = either_of_two(a, b, "the collective they run (their fingerprints differ)",
                              "issued the odd call") + " " + f.summary;
    return;
  }
  if (cause_verdict) return;  // a mismatch the fingerprints could not decide keeps its ranks

  // 2. A rank with its own error while the others only report collective errors.
  std::set<int> own_ranks;
  for (const auto& [r, ids] : own)
    if (!waiting.count(r)) own_ranks.insert(r);
  // A rank that timed out too but printed its own cause first (a CUDA error, then its watchdog's
  // timeout) is still the one the others waited for.
  if (own_ranks.empty())
    for (const auto& [r, ids] : own) own_ranks.insert(r);
  // The ranks the launcher stopped (SIGTERM, SIGINT, SIGHUP: torchrun and mpirun end the rest of the
  // job that way once one rank failed) are victims too, though they printed nothing: they were
  // stopped while they waited.
  std::set<int> stopped;
  for (const auto& [r, e] : scan.exits)
    if (e.signal && (*e.signal == 15 || *e.signal == 2 || *e.signal == 1) && !own_cause.count(r)) stopped.insert(r);
  if (!own_ranks.empty() && (!waiting.empty() || !minus(stopped, own_ranks).empty())) {
    // The strongest finding that names one of those ranks and is not a collective symptom.
    auto it = std::find_if(all.begin(), all.end(), [&](const ScoredFinding& sf) {
      const auto* s = sigs.find(sf.finding.id);
      if (!s || s->role != Role::cause || s->by_launcher || s->klass == "data-mismatch") return false;
      for (int r : sf.finding.culprit.ranks)
        if (own_ranks.count(r)) return true;
      return false;
    });
    if (it != all.end()) {
      std::rotate(all.begin(), it, it + 1);
      core::Finding& f = all.front().finding;
      // An info-level cause (a bare Python exception) is the job's failure once its peers failed on it.
      f.severity = std::max(f.severity, core::Severity::error);
      std::set<int> c;
      for (int r : f.culprit.ranks)
        if (own_ranks.count(r)) c.insert(r);
      f.culprit.ranks.assign(c.begin(), c.end());
      if (f.culprit.hosts.empty()) f.culprit.hosts = hosts_of(c, scan, ranks);
      if (!minus(waiting, c).empty())
        f.summary = rank_words(minus(waiting, c)) + " " + victims_did + " waiting for " + rank_words(c) +
                    ", which failed first with its own error: " + f.summary;
      else
        f.summary = rank_words(c) + " failed with its own error and the launcher stopped " +
                    rank_words(minus(stopped, c)) + ": " + f.summary;
      return;
    }
  }

  // 3. A rank the launcher says crashed (a signal other than the launcher's own SIGTERM).
  std::set<int> crashed;
  int sig_no = 0;
  for (const auto& [r, e] : scan.exits)
    // SIGABRT of a rank that reported a collective timeout is its own watchdog ending the process
    // after the timeout (ProcessGroupNCCL: "Terminating the process after attempting to dump debug
    // info, due to collective timeout", then std::abort): a victim's end, not a crash.
    if (e.signal && signal_name(*e.signal) && !(*e.signal == 6 && waiting.count(r)))
      crashed.insert(r), sig_no = *e.signal;
  if (!crashed.empty() && crashed.size() < world.size()) {
    // A signature that read the launcher's or the shell's line keeps its class (SIGKILL: the OOM
    // killer's signal, SIGBUS: /dev/shm exhausted): the one with a class first, then any.
    auto reads_crash = [&](const ScoredFinding& sf, bool classed) {
      const auto* s = sigs.find(sf.finding.id);
      if (!s || !s->by_launcher || comm_symptom(*s) || sf.finding.severity < core::Severity::error) return false;
      // torchrun's "Root Cause" rank and mpirun's "Process name" name the first rank to exit, not how.
      if (s->exit_report == knowledge::ExitReport::rank) return false;
      return !classed || s->klass != "other";
    };
    auto it = std::find_if(all.begin(), all.end(), [&](const ScoredFinding& sf) { return reads_crash(sf, true); });
    if (it == all.end())
      it = std::find_if(all.begin(), all.end(), [&](const ScoredFinding& sf) { return reads_crash(sf, false); });
    if (it != all.end()) {
      std::rotate(all.begin(), it, it + 1);
    } else {
      ScoredFinding sf;
      sf.finding = knowledge::make_finding("triage.rank-crashed", {});
      all.insert(all.begin(), std::move(sf));
    }
    core::Finding& f = all.front().finding;
    f.culprit.ranks.assign(crashed.begin(), crashed.end());
    f.culprit.hosts = hosts_of(crashed, scan, ranks);
    std::string how = "was killed by signal " + std::to_string(sig_no) + " (" + signal_name(sig_no) + ")";
    f.summary = (waiting.empty() ? std::string() : rank_words(minus(waiting, crashed)) + " " + victims_did + " waiting for ") +
                (waiting.empty() ? "The launcher reports that " + rank_words(crashed) : rank_words(crashed) + ", which") +
                " " + how + ". " + f.summary;
    return;
  }

  // 3b. The rank whose gloo address key every waiter timed out on never joined the group (it hung,
  // stalled or was pointed elsewhere before init_process_group finished).
  if (awaited) {
    ScoredFinding sf;
    const StoreSide& w = scan.store.awaited.at(*awaited);
    std::set<int> culprit{*awaited};
    sf.finding = knowledge::make_finding(
        "triage.waited-for-rank",
        {{"waiting", w.ranks.empty() ? std::string("the other ranks") : rank_words(minus(w.ranks, culprit))},
         {"did", "timed out"},
         {"culprit", rank_words(culprit)},
         {"why", "never published its address to the store (their store waits timed out on its gloo key)"}});
    auto& f = sf.finding;
    f.culprit.ranks = {*awaited};
    f.culprit.hosts = hosts_of(culprit, scan, ranks);
    f.evidence.push_back(store_evidence(w, scan));
    sf.score = all.front().score + 1;
    all.insert(all.begin(), std::move(sf));
    return;
  }

  if (waiting.empty()) return;
  // The torchrun agent is no rank: when it lost its own connection to the rendezvous store
  // (RendezvousConnectionError, torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py)
  // as the ranks lost theirs, and no rank timed out in a collective, the store's host or the path to
  // it failed (a node gone, a load balancer's idle timeout); the ranks were not waiting for a rank.
  if (!timed_out && std::any_of(all.begin(), all.end(), [](const ScoredFinding& sf) {
        return sf.finding.id == "torch.elastic.rendezvous-connection";
      }))
    return;

  // 4. Ranks in a different torch.distributed call than the rest when the job failed.
  std::map<int, std::string> calls;
  for (const auto& [r, p] : ranks)
    if (p.c10d_call) calls[r] = *p.c10d_call;
  std::string maj_call;
  std::set<int> odd_call = calls.size() >= 3 ? odd_ones(calls, &maj_call) : std::set<int>{};
  // 5. Silent ranks: the job's ranks that reported no error while the others waited.
  std::set<int> silent = minus(world, erred);
  // torchrun's failure block lists every worker that did not exit 0, the ones it stopped with
  // SIGTERM included (torch/distributed/elastic/multiprocessing/errors: one entry per failed local
  // rank). On one node (every entry's rank is its local rank) a job rank missing from the block
  // exited 0: while the others were still waiting it left the job; the silent ranks it stopped
  // were still waiting too.
  // Across nodes each node's torchrun prints its own block: a rank missing from the block of the
  // node it belongs to exited 0 (torchrun_nodes_left below).
  const bool one_node_block =
      agent_store && std::all_of(scan.exits.begin(), scan.exits.end(), [](const auto& e) {
        return !e.second.local_rank || *e.second.local_rank == e.first;
      });
  bool left_clean = false;
  std::map<int, std::optional<std::string>> left_host;  // across nodes: the host of the node it left
  if (one_node_block || agent_store) {
    std::set<int> left;
    if (one_node_block) {
      for (int r : silent)
        if (!scan.exits.count(r)) left.insert(r);
    } else {
      left_host = torchrun_nodes_left(scan, silent, world);
      for (const auto& [r, h] : left_host) left.insert(r);
    }
    if (!left.empty() && left.size() < silent.size()) silent = left, left_clean = true;
  }
  // srun prints a line for every task that did not exit 0 and, by default, none for one that did
  // (Slurm src/srun/launch.c, _task_finish: "Completed" is verbose() only). Among silent ranks, the
  // ones srun reports it stopped (Terminated, after --kill-on-bad-exit) were alive and waiting; a
  // silent rank srun never reports left the job. Two cases make srun leave out tasks that did not
  // exit 0, so they stop the rule: once srun's step is cancelled (scancel, time limit) a signalled
  // task is also verbose() only, so only a step in which srun did print a stopped silent rank
  // counts; and an "Out Of Memory" line is printed once per step (oom_printed), so any srun line
  // whose status was not read (code or signal) stops it.
  const bool srun_all_read =
      std::all_of(scan.exits.begin(), scan.exits.end(), [](const auto& e) {
        return !e.second.by_srun || e.second.code || e.second.signal;
      });
  if (!left_clean && srun_all_read) {
    std::set<int> left, stopped_silent;
    for (int r : silent) {
      auto e = scan.exits.find(r);
      if (e == scan.exits.end()) left.insert(r);
      else if (e->second.by_srun && e->second.signal && *e->second.signal == 15) stopped_silent.insert(r);
    }
    const bool srun_job = std::any_of(scan.exits.begin(), scan.exits.end(), [](const auto& e) { return e.second.by_srun; });
    if (srun_job && !stopped_silent.empty() && !left.empty() && left.size() < silent.size() &&
        left.size() + stopped_silent.size() == silent.size())
      silent = left, left_clean = true;
  }
  // The late rank: every other rank of the job timed out, this one only lost its connection, and
  // it exited on its own (an exit code, not the launcher's stop signal) after them: the launcher
  // saw another rank fail first, or the entries of torchrun's per-node blocks (each node prints its
  // own "first observed failure") are timed no earlier than every timed-out rank's. The others
  // waited for it; it lost the connection when they gave up and exited. A launcher that does not
  // stop the remaining tasks (srun without --kill-on-bad-exit: Slurm's default; torchrun on
  // another node) lets a rank that hung wake up and print that. With no silent rank, it is the one
  // they waited for.
  bool late = false;
  if (silent.empty() && timed_out) {
    std::set<int> lost = minus(minus(waiting, timeout_ranks), own_cause);
    auto e = lost.size() == 1 ? scan.exits.find(*lost.begin()) : scan.exits.end();
    const bool own_exit = e != scan.exits.end() && e->second.code && !e->second.signal;
    const bool launcher_first_other =
        own_exit && !e->second.first_failed &&
        std::any_of(scan.exits.begin(), scan.exits.end(), [](const auto& x) { return x.second.first_failed; });
    const bool timed_after = own_exit && e->second.time && !timeout_ranks.empty() &&
                             std::all_of(timeout_ranks.begin(), timeout_ranks.end(), [&](int r) {
                               auto t = scan.exits.find(r);
                               return t != scan.exits.end() && t->second.time && *t->second.time < *e->second.time;
                             });
    if ((launcher_first_other || timed_after) && minus(world, lost) == timeout_ranks) silent = lost, late = true;
  }
  std::set<int> culprit;
  std::string why;
  if (!odd_call.empty()) {
    culprit = odd_call;
    why = "was in " + calls.at(*odd_call.begin()) + " while the others were in " + maj_call +
          " (the ranks diverged: a rank-conditional or reordered collective)";
  } else if (!silent.empty() && silent.size() <= waiting.size()) {
    culprit = silent;
    std::string exit_note;
    for (int r : silent)
      if (auto e = scan.exits.find(r); e != scan.exits.end() && e->second.code)
        exit_note = " (the launcher stopped it: exit code " + std::to_string(*e->second.code) + ")";
    why = late ? std::string("did not time out: it lost its connection only after the others had timed out waiting "
                             "for it and exited (the launcher left it running): it hung or stalled")
          : left_clean ? std::string("reported no error and exited with status 0 while the others waited (the launcher "
                                     "lists every rank that did not exit 0, and not this one): it left the job early "
                                     "(uneven data, a rank-conditional exit or return)")
                       : "reported no error" + exit_note +
                             ": it hung, stalled or left the job early (uneven data, a rank-conditional exit)";
  } else if (auto p = lost_after_timeout(scan, sigs, world, waiting, timeout_ranks, own_cause, crashed)) {
    const std::set<int> both{p->timed_out, p->lost};
    core::Finding f = knowledge::make_finding(
        "triage.pair-timeout", {{"timed", rank_words({p->timed_out})},
                                {"lost", rank_words({p->lost})},
                                {"either", either_of_two(*both.begin(), *both.rbegin(), "which collective comes next",
                                                         "diverged or stalled")}});
    f.evidence = v.evidence;
    if (f.evidence.size() > 4) f.evidence.resize(4);
    lead_with_pair(all, std::move(f), both, scan, ranks);
    return;
  } else {
    return;
  }
  ScoredFinding sf;
  sf.finding = knowledge::make_finding("triage.waited-for-rank", {{"waiting", rank_words(minus(waiting, culprit))},
                                                                  {"did", victims_did},
                                                                  {"culprit", rank_words(culprit)},
                                                                  {"why", why}});
  auto& f = sf.finding;
  f.culprit.ranks.assign(culprit.begin(), culprit.end());
  f.culprit.hosts = hosts_of(culprit, scan, ranks);
  if (f.culprit.hosts.empty() && left_clean && !left_host.empty()) {
    std::set<std::string> hs;
    bool all_known = true;
    for (int r : culprit)
      if (auto it = left_host.find(r); it != left_host.end() && it->second) hs.insert(*it->second);
      else all_known = false;
    if (all_known) f.culprit.hosts.assign(hs.begin(), hs.end());
  }
  f.evidence = v.evidence;
  if (f.evidence.size() > 4) f.evidence.resize(4);
  sf.score = all.front().score + 1;
  all.insert(all.begin(), std::move(sf));
}

}  // namespace ncdx::analyze
