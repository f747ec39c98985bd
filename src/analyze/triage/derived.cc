#include "analyze/triage/derived.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/strings.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
namespace {

std::string rank_list(const std::set<int>& ranks, std::size_t max = 16) {
  // Compresses runs: 0-7,9,12-15
  std::string out;
  std::vector<int> v(ranks.begin(), ranks.end());
  std::size_t shown = 0;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += std::to_string(v[i]);
    if (j > i) out += "-" + std::to_string(v[j]);
    i = j + 1;
    if (++shown >= max && i < v.size()) {
      out += ",…";
      break;
    }
  }
  return out;
}

// A derived finding from its findings.yaml row (identity, texts, fixes, confidence and score);
// the caller adds culprit and evidence.
ScoredFinding scored(const char* id, const knowledge::FindingVars& vars = {}, std::string_view case_name = {}) {
  ScoredFinding sf;
  sf.finding = knowledge::make_finding(id, vars, case_name);
  if (auto score = knowledge::fixed_score(id, case_name)) sf.score = *score;
  return sf;
}

// Evidence that sums up facts of several lines (no single file, line, rank or time to point at).
core::Evidence summary_evidence(const std::string& text) {
  core::Evidence e;
  e.text = text;
  return e;
}

core::Evidence fact_evidence(const ProcessFacts& p, const std::string& text) {
  core::Evidence e;
  e.file = p.files.empty() ? std::string() : *p.files.begin();
  e.rank = p.rank;
  e.host = p.host;
  e.text = text;
  return e;
}

std::optional<ScoredFinding> version_skew(const std::map<int, ProcessFacts>& ranks,
                                          const std::vector<ProcessFacts>& unranked) {
  std::map<std::string, std::vector<const ProcessFacts*>> by_version;
  for (const auto& [r, p] : ranks)
    if (p.nccl_version) by_version[*p.nccl_version].push_back(&p);
  for (const auto& p : unranked)
    if (p.nccl_version) by_version[*p.nccl_version].push_back(&p);
  if (by_version.size() < 2) return std::nullopt;
  core::Culprit culprit;
  std::vector<core::Evidence> evidence;
  // The minority version is the likely odd one out (a node with a different container/image).
  std::size_t most = 0;
  for (const auto& [v, ps] : by_version) most = std::max(most, ps.size());
  std::vector<std::string> parts;
  for (const auto& [v, ps] : by_version) {
    std::set<int> rs;
    std::set<std::string> hs;
    for (const auto* p : ps) {
      if (p->rank) rs.insert(*p->rank);
      if (p->host) hs.insert(*p->host);
    }
    parts.push_back(v + " on " + (hs.empty() ? "ranks " + rank_list(rs) : core::join({hs.begin(), hs.end()}, ",")));
    bool minority = ps.size() < most || (ps.size() == most && by_version.size() > 1 && v != by_version.rbegin()->first);
    if (minority) {
      culprit.ranks.insert(culprit.ranks.end(), rs.begin(), rs.end());
      culprit.hosts.insert(culprit.hosts.end(), hs.begin(), hs.end());
    }
    evidence.push_back(fact_evidence(*ps.front(), "NCCL version " + v));
  }
  ScoredFinding sf = scored("triage.version-skew", {{"versions", core::join(parts, "; ")}});
  sf.finding.culprit = std::move(culprit);
  sf.finding.evidence = std::move(evidence);
  return sf;
}

std::optional<ScoredFinding> socket_fallback(const TopologyFacts& topo) {
  bool socket = false;
  for (const auto& n : topo.networks) socket |= n.rfind("Socket", 0) == 0;
  if (!socket && topo.networks.empty() && !topo.socket_ifs.empty() && topo.ib_devices.empty()) socket = true;
  if (!socket) return std::nullopt;
  // Only hardware counts as IB being there: an IPoIB interface carrying the sockets, or HCAs NCCL
  // listed. A missing libibverbs, "No device found" or NCCL_IB_DISABLE=1 alone is what a node
  // without IB prints too.
  bool ib_if = false;
  for (const auto& s : topo.socket_ifs) ib_if |= s.rfind("ib", 0) == 0;
  if (!ib_if && topo.ib_devices.empty()) return std::nullopt;
  std::string why = topo.verbs_missing        ? "libibverbs could not be loaded"
                    : topo.ib_disabled_by_env ? "NCCL_IB_DISABLE=1 is set"
                    : topo.ib_no_device       ? "NET/IB found no usable device"
                                              : "IB is present (an ib* interface carries the socket traffic)";
  ScoredFinding sf = scored("triage.socket-fallback-on-ib", {{"why", why}});
  auto& f = sf.finding;
  std::string ifs = core::join({topo.socket_ifs.begin(), topo.socket_ifs.end()}, " ");
  f.evidence.push_back(
      summary_evidence("NET/Socket : Using " + ifs + (topo.verbs_missing ? " (Failed to open libibverbs)" : "")));
  return sf;
}

// NCCL said GPUDirect RDMA is unavailable for its HCAs and its inter-node channels indeed run over
// NET/IB without /GDRDMA: every transfer is staged through host memory. Slower, not broken, so it
// scores below every failure and names the job only when nothing failed (a slow job's log).
// The HCA line alone (no channel lines) stays an observation: it may be a node that never sent.
std::optional<ScoredFinding> ib_without_gdr(const TopologyFacts& topo) {
  if (!topo.gdr_disabled) return std::nullopt;
  long long plain = 0, gdr = 0;
  for (const auto& [k, n] : topo.transports) {
    if (k.rfind("NET/IB", 0) != 0) continue;
    (k.find("+GDRDMA") != std::string::npos ? gdr : plain) += n;
  }
  if (plain == 0 || gdr > 0) return std::nullopt;
  ScoredFinding sf = scored("triage.ib-without-gdr", {{"channels", std::to_string(plain)}});
  sf.finding.evidence.push_back(
      summary_evidence("NET/IB : GPU Direct RDMA Disabled for HCA; channels via NET/IB without GDRDMA"));
  return sf;
}

struct TimeoutView {
  std::set<int> reporters, non_reporters, odd_seq, odd_op, behind, stuck, never_init, stopped, hung_watchdog;
  std::optional<long long> seq, timeout_ms, ran_for_ms;
  std::string op;
};

TimeoutView timeout_view(const std::map<int, ProcessFacts>& ranks) {
  TimeoutView v;
  std::map<long long, int> seq_count;
  int nranks = 0;
  for (const auto& [r, p] : ranks) {
    if (p.nranks) nranks = std::max(nranks, *p.nranks);
    // Ranks are numbered densely from 0: seeing rank r means ranks 0..r exist.
    nranks = std::max(nranks, r + 1);
    if (p.timeout_seq || p.timeout_op || p.ran_for_ms || p.watchdog_stuck) {
      v.reporters.insert(r);
      if (p.timeout_seq) ++seq_count[*p.timeout_seq];
      if (p.timeout_op && v.op.empty()) v.op = *p.timeout_op;
      if (p.timeout_ms && !v.timeout_ms) v.timeout_ms = p.timeout_ms;
      if (p.ran_for_ms && !v.ran_for_ms) v.ran_for_ms = p.ran_for_ms;
    }
  }
  if (v.reporters.empty()) return v;
  // A rank whose heartbeat monitor fired ("watchdog got stuck") but that reports no collective
  // timeout of its own, among ranks that do: its watchdog thread was blocked in a CUDA/NCCL call on
  // that rank (PyTorch ProcessGroupNCCL.cpp: the monitor fires when the watchdog makes no progress,
  // which a collective that merely waits for a peer never causes: that one times out instead). The
  // others timed out waiting for it. A minority only: when most ranks are stuck the hang is shared.
  std::set<int> timed_out, hung;
  for (const auto& [r, p] : ranks) {
    if (p.timeout_seq || p.timeout_op || p.ran_for_ms) timed_out.insert(r);
    else if (p.watchdog_stuck) hung.insert(r);
  }
  if (!hung.empty() && hung.size() < timed_out.size()) v.hung_watchdog = hung;
  int best = 0;
  for (const auto& [s, c] : seq_count)
    if (c > best) best = c, v.seq = s;
  std::set<int> known;
  for (const auto& [r, p] : ranks) known.insert(r);
  for (int r = 0; r < nranks && r < 100000; ++r) known.insert(r);
  for (int r : known)
    if (!v.reporters.count(r)) v.non_reporters.insert(r);
  for (const auto& [r, p] : ranks) {
    if (p.timeout_seq && v.seq && *p.timeout_seq != *v.seq) v.odd_seq.insert(r);
    if (v.seq && p.last_completed && *p.last_completed < *v.seq - 1) v.stuck.insert(r);
  }
  // Ranks waiting in the same collective slot (SeqNum) but in another operation than the majority
  // there (ALLGATHER where the others run ALLREDUCE): every rank numbers its collectives the same
  // way, so that rank issued a different collective (an extra or missing call: uneven batches, a
  // rank-conditional branch) and the slot can never match. Three or more ranks at the SeqNum, the
  // odd ones a strict minority (with two, either could be the odd one).
  if (v.seq) {
    std::map<std::string, std::set<int>> by_op;
    std::size_t at_seq = 0;
    for (const auto& [r, p] : ranks)
      if (p.timeout_seq && *p.timeout_seq == *v.seq && p.timeout_op) ++at_seq, by_op[*p.timeout_op].insert(r);
    if (at_seq >= 3 && by_op.size() >= 2) {
      auto major = std::max_element(by_op.begin(), by_op.end(),
                                    [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
      if (major->second.size() * 2 > at_seq) {
        v.op = major->first;
        for (const auto& [op, rs] : by_op)
          if (op != major->first) v.odd_op.insert(rs.begin(), rs.end());
      }
    }
  }
  // COLL progress: ranks whose last opCount is behind the others never issued the collective.
  std::optional<long long> max_op;
  for (const auto& [r, p] : ranks)
    if (p.last_opcount) max_op = std::max(max_op.value_or(*p.last_opcount), *p.last_opcount);
  if (max_op)
    for (const auto& [r, p] : ranks)
      if (p.last_opcount && *p.last_opcount < *max_op) v.behind.insert(r);
  bool any_complete = false;
  for (const auto& [r, p] : ranks) any_complete |= p.init_complete;
  if (any_complete)
    for (const auto& [r, p] : ranks)
      if (p.init_start && !p.init_complete) v.never_init.insert(r);
  // Ranks that went quiet long before the others (killed, OOM, stuck): compare last timestamps.
  std::vector<double> lasts;
  for (const auto& [r, p] : ranks)
    if (p.last_time && p.time_is_epoch) lasts.push_back(*p.last_time);
  if (lasts.size() >= 3) {
    std::sort(lasts.begin(), lasts.end());
    double median = lasts[lasts.size() / 2];
    double gap = v.timeout_ms ? static_cast<double>(*v.timeout_ms) / 2000.0 : 120.0;
    for (const auto& [r, p] : ranks)
      if (p.last_time && p.time_is_epoch && *p.last_time < median - std::max(gap, 60.0)) v.stopped.insert(r);
  }
  return v;
}

std::optional<ScoredFinding> timeout_cascade(const std::map<int, ProcessFacts>& ranks) {
  auto v = timeout_view(ranks);
  if (v.reporters.empty()) return std::nullopt;
  std::set<int> culprits;
  std::vector<std::string> why;
  auto add = [&](const std::set<int>& s, const std::string& text) {
    if (s.empty()) return;
    culprits.insert(s.begin(), s.end());
    why.push_back("rank " + rank_list(s) + " " + text);
  };
  add(v.behind, "issued fewer collectives (COLL opCount behind the others)");
  add(v.stuck, "last completed an earlier collective than the one the others time out on");
  add(v.never_init, "never printed Init COMPLETE");
  add(v.stopped, "stopped logging long before the others (killed, crashed or stuck)");
  add(v.hung_watchdog, "had its watchdog stuck in a CUDA/NCCL call (heartbeat monitor) while the others timed out waiting");
  if (v.odd_seq.size() * 2 < v.reporters.size()) add(v.odd_seq, "timed out on a different SeqNum (a desynchronised collective sequence)");
  add(v.odd_op, "waited in another operation than the others at the same SeqNum (it issued a different collective)");
  // Ranks that never report the timeout everyone else reports are not waiting: they are elsewhere.
  if (!v.non_reporters.empty() && v.non_reporters.size() < v.reporters.size())
    add(v.non_reporters, "did not report the timeout the others report");

  std::string stage;
  if (v.seq && *v.seq <= 3)
    stage = "The first collectives (SeqNum " + std::to_string(*v.seq) +
            ") never completed: a peer was still starting (bootstrap, network setup, slow model load) or never reached it.";
  else if (v.seq)
    stage = "It happened mid-run (SeqNum " + std::to_string(*v.seq) +
            "): a rank diverged (a rank-conditional collective), died, or fell far behind (straggler).";
  if (v.ran_for_ms && v.timeout_ms && *v.timeout_ms > 0 &&
      std::abs(static_cast<double>(*v.ran_for_ms - *v.timeout_ms)) < 0.1 * static_cast<double>(*v.timeout_ms))
    stage += " The collective made no progress until the watchdog fired (" + std::to_string(*v.timeout_ms / 1000) +
             " s): a hang, not slowness.";

  // A named suspect makes the cascade a stronger explanation (findings.yaml cases).
  ScoredFinding sf = scored("triage.timeout-cascade",
                            {{"count", std::to_string(v.reporters.size())},
                             {"ranks", rank_list(v.reporters)},
                             {"in_op", v.op.empty() ? "" : " in " + v.op},
                             {"stage", stage.empty() ? "" : " " + stage},
                             {"suspects", why.empty() ? " No log names the rank at fault; the ranks that were not "
                                                        "waiting are the suspects."
                                                      : " Suspects: " + core::join(why, "; ") + "."}},
                            culprits.empty() ? "no-suspect" : "suspect-named");
  auto& f = sf.finding;
  f.culprit.ranks.assign(culprits.begin(), culprits.end());
  for (int r : culprits)
    if (auto it = ranks.find(r); it != ranks.end() && it->second.host &&
                                 std::find(f.culprit.hosts.begin(), f.culprit.hosts.end(), *it->second.host) == f.culprit.hosts.end())
      f.culprit.hosts.push_back(*it->second.host);
  for (int r : v.reporters) {
    if (f.evidence.size() >= 3) break;
    const auto& p = ranks.at(r);
    if (p.watchdog_stuck && !p.timeout_seq && !p.timeout_op) {
      f.evidence.push_back(fact_evidence(p, "Heartbeat monitor: the watchdog got stuck waiting on enqueued collectives"));
      continue;
    }
    f.evidence.push_back(fact_evidence(p, "Watchdog timeout: SeqNum=" + (p.timeout_seq ? std::to_string(*p.timeout_seq) : "?") +
                                              " OpType=" + p.timeout_op.value_or("?") +
                                              (p.ran_for_ms ? " ran for " + std::to_string(*p.ran_for_ms) + " ms" : "")));
  }
  for (int r : culprits) {
    if (f.evidence.size() >= 6) break;
    auto found = ranks.find(r);
    if (found == ranks.end()) {  // known only from the numbering: it left no line at all
      f.evidence.push_back({"", std::nullopt, r, std::nullopt, std::nullopt,
                            "rank " + std::to_string(r) + " printed nothing in these logs"});
      continue;
    }
    const auto& p = found->second;
    std::string text = "rank " + std::to_string(r);
    if (p.last_opcount) text += " last COLL opCount " + std::to_string(*p.last_opcount);
    if (p.last_completed) text += " last completed work " + std::to_string(*p.last_completed);
    if (p.init_start && !p.init_complete) text += " never finished init";
    if (!p.timeout_seq) text += " reported no timeout";
    f.evidence.push_back(fact_evidence(p, text));
  }
  return sf;
}

std::optional<ScoredFinding> timeout_not_applied(const std::map<int, ProcessFacts>& ranks,
                                                 const std::vector<ProcessFacts>& unranked,
                                                 const CorrelateOptions& opts) {
  if (!opts.expect_timeout_s) return std::nullopt;
  long long want = *opts.expect_timeout_s * 1000;
  const ProcessFacts* seen = nullptr;
  long long observed = 0;
  auto check = [&](const ProcessFacts& p) {
    for (auto v : {p.timeout_ms, p.configured_timeout_ms})
      if (v && *v != want && !seen) seen = &p, observed = *v;
  };
  for (const auto& [r, p] : ranks) check(p);
  for (const auto& p : unranked) check(p);
  if (!seen) return std::nullopt;
  ScoredFinding sf = scored("triage.timeout-not-applied", {{"expected_s", std::to_string(*opts.expect_timeout_s)},
                                                           {"observed_ms", std::to_string(observed)},
                                                           {"observed_s", std::to_string(observed / 1000)}});
  sf.finding.evidence.push_back(fact_evidence(*seen, "Timeout(ms)=" + std::to_string(observed)));
  return sf;
}

std::optional<ScoredFinding> init_incomplete(const std::map<int, ProcessFacts>& ranks) {
  std::set<int> stuck;
  bool any_complete = false;
  bool any_timeout = false;
  for (const auto& [r, p] : ranks) {
    any_complete |= p.init_complete;
    any_timeout |= p.timeout_seq.has_value() || p.timeout_op.has_value();
    if (p.init_start && !p.init_complete) stuck.insert(r);
  }
  if (!any_complete || stuck.empty() || any_timeout) return std::nullopt;  // the cascade covers it
  ScoredFinding sf = scored("triage.init-incomplete", {{"ranks", rank_list(stuck)}});
  sf.finding.culprit.ranks.assign(stuck.begin(), stuck.end());
  return sf;
}

// The CUDA sample p2pBandwidthLatencyTest is what users run to check GPU peer-to-peer; when its
// output stops after a matrix header, the peer copy it was timing never completed: P2P DMA is
// blocked on this platform (IOMMU/VT-d or ACS redirecting peer traffic, or a broken bridge).
std::optional<ScoredFinding> p2p_test_hung(const TopologyFacts& topo) {
  if (!topo.p2p_test || topo.p2p_matrix_headers == 0 || topo.p2p_rows_after_header > 0) return std::nullopt;
  ScoredFinding sf = scored("triage.p2p-test-hung");
  sf.finding.evidence.push_back(summary_evidence("p2pBandwidthLatencyTest output ends after a matrix header"));
  return sf;
}

// nccl-tests prints the device of every rank ("#  Rank  3 Group  0 Pid ..."). When several processes
// each call themselves rank 0 and no rank above 0 appears, every process ran its own one-rank test:
// the binaries were built without MPI=1 and started by mpirun (nccl-tests README, "MPI=1"), so no
// data crossed between GPUs and the bandwidth says nothing about the system.
std::optional<ScoredFinding> nccltests_without_mpi(const TopologyFacts& topo) {
  if (topo.nccltests_rank0_pids.size() < 2 || topo.nccltests_max_rank != 0) return std::nullopt;
  ScoredFinding sf = scored("triage.nccl-tests-without-mpi", {{"count", std::to_string(topo.nccltests_rank0_pids.size())}});
  auto& f = sf.finding;
  std::string pids;
  for (long long p : topo.nccltests_rank0_pids) pids += (pids.empty() ? "" : ", ") + std::to_string(p);
  f.evidence.push_back(summary_evidence("nccl-tests device list: Rank 0 printed by pids " + pids));
  return sf;
}

// The ranks' watchdog timeouts as evidence, until the finding holds three lines.
void add_timeout_evidence(core::Finding& f, const std::map<int, ProcessFacts>& ranks) {
  for (const auto& [r, p] : ranks) {
    if (f.evidence.size() >= 3) break;
    if (p.timeout_seq)
      f.evidence.push_back(fact_evidence(p, "Watchdog timeout: SeqNum=" + std::to_string(*p.timeout_seq) +
                                                " OpType=" + p.timeout_op.value_or("?")));
  }
}

// A rank at fault is visible in the timeout view: the cascade names it.
bool rank_at_fault_visible(const TimeoutView& v) {
  return !v.behind.empty() || !v.stuck.empty() || !v.never_init.empty() || !v.stopped.empty() ||
         !v.odd_seq.empty() || !v.odd_op.empty();
}

// NCCL connected the ranks over P2P and no network transport (one node).
bool p2p_only(const TopologyFacts& topo) {
  bool p2p = false;
  for (const auto& [t, n] : topo.transports) {
    if (t.rfind("NET", 0) == 0 || t.rfind("CollNet", 0) == 0) return false;
    p2p |= t.rfind("P2P", 0) == 0;
  }
  return p2p;
}

// Every rank of a single-node communicator waits in the very first collective, all finished init,
// none is behind or missing, and the only transport between them is P2P: nothing on the ranks'
// side explains the wait, and on one node the data path is the peer-to-peer one. A P2P path the
// driver offers but that never delivers (GeForce boards advertising unsupported P2P, IOMMU in
// translated mode, ACS redirecting peer TLPs) hangs exactly here (NCCL troubleshooting guide:
// ACS, IOMMU). An inference from the job's shape, scored above the bare cascade only.
std::optional<ScoredFinding> p2p_first_collective_hang(const std::map<int, ProcessFacts>& ranks,
                                                       const TopologyFacts& topo) {
  auto v = timeout_view(ranks);
  if (v.reporters.size() < 2 || !v.seq || *v.seq > 3) return std::nullopt;
  if (rank_at_fault_visible(v) || !v.non_reporters.empty() || !p2p_only(topo)) return std::nullopt;
  std::set<std::string> hosts;
  for (const auto& [r, p] : ranks) {
    if (p.host) hosts.insert(*p.host);
    if (!p.init_complete) return std::nullopt;  // init not seen: the wait may be a slow start
  }
  if (hosts.size() != 1) return std::nullopt;

  ScoredFinding sf = scored("triage.p2p-first-collective-hang", {{"count", std::to_string(v.reporters.size())},
                                                                {"host", *hosts.begin()},
                                                                {"seq", std::to_string(*v.seq)},
                                                                {"and_op", v.op.empty() ? "" : ", " + v.op}});
  auto& f = sf.finding;
  f.culprit.hosts = {*hosts.begin()};
  add_timeout_evidence(f, ranks);
  std::string ts;
  for (const auto& [t, n] : topo.transports) ts += (ts.empty() ? "" : ", ") + t;
  f.evidence.push_back(summary_evidence("NCCL transports: " + ts));
  return sf;
}

// NCCL_P2P_LEVEL set beyond NCCL's default (P2P within a PCIe switch, PXB) to PHB, NODE or SYS makes
// NCCL use P2P through host bridges or across the CPU interconnect, where many platforms do not
// forward peer traffic (NCCL environment docs: NCCL_P2P_LEVEL). With that setting in the log and the
// job hung in its first collective over P2P on one node, the forced path is the suspect even when
// the excerpt shows only some ranks (what p2p_first_collective_hang needs all of).
std::optional<ScoredFinding> p2p_level_forced_hang(const std::map<int, ProcessFacts>& ranks,
                                                   const TopologyFacts& topo) {
  const std::string& lvl = topo.p2p_level_env;
  if (lvl != "SYS" && lvl != "PHB" && lvl != "NODE") return std::nullopt;
  auto v = timeout_view(ranks);
  if (v.reporters.empty() || !v.seq || *v.seq > 3) return std::nullopt;
  if (rank_at_fault_visible(v) || !p2p_only(topo)) return std::nullopt;
  std::set<std::string> hosts;
  for (const auto& [r, p] : ranks)
    if (p.host) hosts.insert(*p.host);
  if (hosts.size() > 1) return std::nullopt;
  ScoredFinding sf = scored("triage.p2p-level-forced-hang", {{"level", lvl},
                                                             {"seq", std::to_string(*v.seq)},
                                                             {"and_op", v.op.empty() ? "" : ", " + v.op}});
  auto& f = sf.finding;
  if (!hosts.empty()) f.culprit.hosts = {*hosts.begin()};
  f.evidence.push_back(summary_evidence("NCCL_P2P_LEVEL set by environment to " + lvl));
  add_timeout_evidence(f, ranks);
  return sf;
}

}  // namespace

std::vector<ScoredFinding> derive_findings(const std::map<int, ProcessFacts>& ranks,
                                           const std::vector<ProcessFacts>& unranked,
                                           const TopologyFacts& topo,
                                           const CorrelateOptions& opts) {
  std::vector<ScoredFinding> out;
  for (auto f : {version_skew(ranks, unranked), socket_fallback(topo), ib_without_gdr(topo), timeout_cascade(ranks),
                 timeout_not_applied(ranks, unranked, opts), init_incomplete(ranks), p2p_test_hung(topo),
                 p2p_first_collective_hang(ranks, topo), p2p_level_forced_hang(ranks, topo),
                 nccltests_without_mpi(topo)})
    if (f) out.push_back(std::move(*f));
  return out;
}

}  // namespace ncdx::analyze
