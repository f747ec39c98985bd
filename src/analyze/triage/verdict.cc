#include "analyze/triage/verdict.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "analyze/judge/triage_hook.h"
#include "analyze/triage/cascade.h"
#include "analyze/triage/catalogued.h"
#include "analyze/triage/clean_exit.h"
#include "analyze/triage/derived.h"
#include "analyze/triage/elimination.h"
#include "analyze/triage/evidence.h"
#include "analyze/triage/fallback.h"
#include "analyze/triage/fr_trace_text.h"
#include "analyze/triage/killed_peer.h"
#include "analyze/triage/ras_report.h"
#include "analyze/triage/waiter.h"
#include "analyze/triage/forced_env.h"
#include "core/semver.h"
#include "core/strings.h"
#include "knowledge/error_tokens.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
namespace {
using knowledge::Role;



// A peer as the libraries print it - NCCL "10.0.0.7<41234>", gloo "[10.0.0.7]:6000" followed by
// the sentence's full stop, "host:29500" - as a host name; a loopback address names no host (every
// host calls itself that), so it is dropped.
std::string peer_host(std::string p) {
  p = p.substr(0, p.find('<'));
  while (!p.empty() && (p.back() == '.' || p.back() == ',' || p.back() == ';' || p.back() == ')' || p.back() == '\''))
    p.pop_back();
  if (!p.empty() && p.front() == '[') {
    auto e = p.find(']');
    p = e == std::string::npos ? p.substr(1) : p.substr(1, e - 1);
  } else if (std::count(p.begin(), p.end(), ':') == 1) {
    p = p.substr(0, p.find(':'));  // host:port (an IPv6 address has several colons)
  }
  if (p == "127.0.0.1" || p == "::1" || p == "localhost" || p.rfind("::ffff:127.", 0) == 0) return {};
  // A bare number is a rank or a count, never a host; digits and dots that are not four numbers
  // are an address cut short (a terminal wrapped "192.168.10" | ".21<35819>"), no host either.
  if (!p.empty() && std::all_of(p.begin(), p.end(), [](unsigned char c) { return std::isdigit(c) != 0 || c == '.'; }) &&
      std::count(p.begin(), p.end(), '.') != 3)
    return {};
  return p;
}

core::Evidence to_evidence(const TriageEvent& ev, const InputSummary& input) { return evidence_at(ev, input); }

// The peer a line names as the other side of its failure (the pattern's `peer`, `peer_ip` or
// `remote` group), as printed; empty when it names none.
std::string named_peer(const TriageEvent& ev) {
  for (const char* k : {"peer", "peer_ip", "remote"})
    if (auto it = ev.fields.find(k); it != ev.fields.end() && !it->second.empty()) return it->second;
  return {};
}

// The host of a single culprit rank from its victims' lines. A rank that died or left closes its
// sockets, and the ranks it talked to print its address (gloo pair.cc "Connection closed by peer
// [198.19.0.3]:59088", NCCL "Connection closed by remote peer 10.0.0.7<41234>"). When every such
// line of the other ranks names one and the same host, and enough ranks say so, that is where the
// culprit ran. Open MPI's tags and an exception name no host, so this is often the only place it
// appears. Enough: two (a ring neighbour on each side), or the one peer of a job that declares two
// ranks (NCCL's nranks) - a pasted excerpt of two ranks of a larger job would otherwise let one
// victim's other neighbour pass for the culprit. Nothing is decided from a sample: every hit of
// such a signature must be in view.
std::optional<std::string> host_named_by_victims(int culprit, const ScanResult& scan,
                                                 const knowledge::SignatureSet& sigs,
                                                 const std::map<int, ProcessFacts>& ranks) {
  std::set<std::string> named;
  std::set<int> reporters;
  for (const auto& h : scan.hits) {
    if (sigs.all()[h.sig].role != Role::symptom) continue;
    for (const auto& ev : h.samples) {
      const std::string host = peer_host(named_peer(ev));
      if (host.empty()) continue;
      if (h.count != h.samples.size()) return std::nullopt;
      if (!ev.rank) return std::nullopt;  // whose line it is decides whether it counts
      if (*ev.rank == culprit) continue;  // the culprit's own lines name its peers, not itself
      auto known = scan.topology.host_of_addr.find(host);
      named.insert(known != scan.topology.host_of_addr.end() && !known->second.empty() ? known->second : host);
      reporters.insert(*ev.rank);
    }
  }
  bool declared_two = false;
  for (const auto& [r, p] : ranks) declared_two |= p.nranks && *p.nranks == 2;
  if (named.size() != 1 || reporters.empty() || (reporters.size() < 2 && !declared_two)) return std::nullopt;
  // A reporter on that very host would be naming itself: the address is not the culprit's alone.
  for (int r : reporters)
    if (auto it = ranks.find(r); it != ranks.end() && it->second.host && *it->second.host == *named.begin())
      return std::nullopt;
  return *named.begin();
}

// The ranks of the processes with this pid (on this host when the line names one): the kernel's
// Xid and OOM-killer lines name the process by pid, NCCL's and the launchers' lines tie pids to ranks.
std::set<int> ranks_of_pid(const std::map<int, ProcessFacts>& ranks, long long pid, const std::optional<std::string>& host) {
  std::set<int> out;
  for (const auto& [r, p] : ranks)
    if (p.pid && *p.pid == pid && (!host || !p.host || *host == *p.host)) out.insert(r);
  return out;
}

// A line that compares the reporter's own setting with its peer's (`local_kind`: "Remote RoCE device
// is incompatible with the local [7]mlx5_7:1/IB"): every host on both sides reports it, each with
// its own kind. With one fault the odd host is the one whose own kind the fewest hosts share; the
// others only report it as their remote. Two kinds and a strict minority, else nobody is singled out.
std::set<std::string> minority_local_hosts(const SignatureHits& h) {
  std::map<std::string, std::set<std::string>> hosts_of_kind;
  for (const auto& ev : h.samples)
    if (auto it = ev.fields.find("local_kind"); it != ev.fields.end() && ev.host)
      hosts_of_kind[it->second].insert(*ev.host);
  if (hosts_of_kind.size() != 2) return {};
  const auto& a = hosts_of_kind.begin()->second;
  const auto& b = std::next(hosts_of_kind.begin())->second;
  if (a.size() == b.size()) return {};
  return a.size() < b.size() ? a : b;
}

ScoredFinding from_hits(const SignatureHits& h, const knowledge::Signature& sig, const InputSummary& input,
                        std::size_t max_evidence, const std::map<std::string, std::string>& host_of_addr,
                        const std::map<int, ProcessFacts>& rank_facts) {
  ScoredFinding sf;
  auto& f = sf.finding;
  f.id = sig.id;
  f.klass = sig.klass;
  f.severity = sig.severity;
  f.title = sig.title;
  const TriageEvent& first = h.earliest ? *h.earliest : h.samples.front();
  // The cause is rendered from the line that fills most of its {fields}: the earliest line of a
  // signature is often the variant that names nothing (a Ray wrapper of the OOM before the
  // allocator's own message with the size and GPU).
  const TriageEvent* richest = &first;
  for (const auto& ev : h.samples)
    if (ev.fields.size() > richest->fields.size()) richest = &ev;
  f.summary = knowledge::render_cause(sig, richest->fields);
  // A line can name other ranks: the other side of a failed exchange ("while rank 0 has ..."), the
  // rank a store lookup waited for, the ranks that missed a barrier, the process mpirun saw fail,
  // the two ranks sharing one GPU.
  // A symptom's named ranks replace the rank that printed it (that one was only waiting); a cause's
  // are added to it.
  std::set<int> named;
  std::map<int, int> named_by;  // rank -> how many report lines name it
  for (const auto& ev : h.samples)
    for (const char* k : {"peer_rank", "failed_rank", "failed_ranks", "rank_a", "rank_b"})
      if (auto it = ev.fields.find(k); it != ev.fields.end())
        for (auto part : core::split(it->second, ','))
          if (auto r = core::parse_int(core::trim(part)); r && named.size() < 64) {
            named.insert(static_cast<int>(*r));
            ++named_by[static_cast<int>(*r)];
          }
  // When every rank reports the other side of a comparison (DDP's "Rank 1 has 258 params, while
  // rank 0 has inconsistent 260": each rank names the first one that differs from it), the rank
  // that most reports name is the odd one; the odd one's own report names a good rank. Three
  // reports at least, and a strict majority of them; with two ranks either could be the odd one.
  if (sig.role == Role::symptom && named.size() > 1 && h.samples.size() >= 3) {
    auto top = std::max_element(named_by.begin(), named_by.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    if (top->second * 2 > static_cast<int>(h.samples.size())) named = {top->first};
  }
  std::set<int> ranks = named.empty() || sig.role == Role::cause ? h.ranks : std::set<int>{};
  ranks.insert(named.begin(), named.end());
  if (ranks.empty() && sig.role == Role::cause)
    for (const auto& ev : h.samples)
      if (auto it = ev.fields.find("pid"); it != ev.fields.end())
        if (auto pid = core::parse_int(it->second); pid && *pid > 0)
          if (auto by_pid = ranks_of_pid(rank_facts, *pid, ev.host); by_pid.size() == 1) ranks.insert(*by_pid.begin());
  f.culprit.ranks.assign(ranks.begin(), ranks.end());
  // A symptom that names its peer ("remote process exited", "connection closed by peer X")
  // points at the peer, not at the rank that printed it.
  std::set<std::string> peers, claimed_peers;
  bool names_peer = false;  // even a loopback peer, which names no host, is another process
  for (const auto& ev : h.samples)
    if (const std::string peer = named_peer(ev); !peer.empty()) {
      names_peer = true;
      if (auto host = peer_host(peer); !host.empty()) {
        auto known = host_of_addr.find(host);  // the address NCCL printed as some host's own
        const bool claimed = known != host_of_addr.end() && !known->second.empty();
        peers.insert(claimed ? known->second : host);
        if (claimed) claimed_peers.insert(known->second);
      }
    }
  // A launcher line names the node of the task it saw die ("srun: error: node3: task 5: Killed",
  // mpirun's "process rank 5 ... on node node3"); the launcher's own host is not the culprit's.
  // A scheduler line can name a failed node without a task ("srun: error: Node failure on node3").
  std::set<std::string> failed_nodes;
  for (const auto& ev : h.samples) {
    if (ev.fields.count("failed_rank"))
      if (auto it = ev.fields.find("node"); it != ev.fields.end() && !it->second.empty())
        failed_nodes.insert(it->second);
    if (auto it = ev.fields.find("failed_node"); it != ev.fields.end() && !it->second.empty())
      failed_nodes.insert(it->second);
  }
  // A cause that processes on several hosts report against one and the same peer (each sees its
  // completions fail towards 10.10.2.13): the peer is what they share, the reporters are its victims.
  // The peer is the host that printed the address as its own, or else the address: a network
  // transport's peer is always another node (NCCL reaches ranks on its own node over P2P/SHM), so
  // an address that two reporting hosts share is neither of them.
  const bool network_peer = sig.klass == "network-ib" || sig.klass == "network-socket";
  const bool shared_peer = sig.role == Role::cause && peers.size() == 1 && h.hosts.size() >= 2 &&
                           !h.hosts.count(*peers.begin()) &&
                           (network_peer || std::any_of(host_of_addr.begin(), host_of_addr.end(),
                                                        [&](const auto& a) { return a.second == *peers.begin(); }));
  if ((sig.role == Role::symptom && names_peer) || shared_peer) {
    f.culprit.hosts.assign(peers.begin(), peers.end());
    f.culprit.ranks.clear();
    if (shared_peer) f.culprit.component = "link to " + *peers.begin();
  } else if (!failed_nodes.empty()) {
    f.culprit.hosts.assign(failed_nodes.begin(), failed_nodes.end());
  } else {
    std::set<std::string> hosts = h.hosts;
    // A socket connect that failed towards an address another host printed as its own
    // ("Bootstrap : Using tailscale0:100.87.3.12<0>", then "Connect to 100.87.3.12<39211> failed :
    // Network is unreachable"): the fault is the path between the two, and most often the address
    // the peer advertises (a VPN, docker or libvirt interface NCCL picked there). Both hosts are named.
    if (sig.klass == "network-socket" && sig.role == Role::cause && peers.size() == 1 && claimed_peers.size() == 1)
      hosts.insert(*claimed_peers.begin());
    f.culprit.hosts.assign(hosts.begin(), hosts.end());
    if (!peers.empty()) f.culprit.component = "link to " + *peers.begin();
  }
  if (auto odd = minority_local_hosts(h); !odd.empty()) {
    f.culprit.hosts.assign(odd.begin(), odd.end());
    std::set<int> theirs;
    for (const auto& ev : h.samples)
      if (ev.rank && ev.host && odd.count(*ev.host)) theirs.insert(*ev.rank);
    f.culprit.ranks.assign(theirs.begin(), theirs.end());
  }
  std::set<std::string> devices;
  for (const auto& ev : h.samples) {
    for (const char* k : {"pci", "busid", "bus_id", "device", "hca", "gpu"})
      if (auto it = ev.fields.find(k); it != ev.fields.end() && !it->second.empty()) devices.insert(it->second);
    if (ev.cuda_dev) devices.insert((ev.host ? *ev.host + " " : std::string()) + "cuda:" + std::to_string(*ev.cuda_dev));
  }
  f.culprit.devices.assign(devices.begin(), devices.end());
  if (f.culprit.devices.size() > 16) f.culprit.devices.resize(16);
  f.evidence.push_back(to_evidence(first, input));
  for (const auto& ev : h.samples) {
    if (f.evidence.size() >= max_evidence) break;
    if (ev.order != first.order) f.evidence.push_back(to_evidence(ev, input));
  }
  f.fixes = sig.fixes;
  if (h.refinement) {
    const auto& r = sig.refine[*h.refinement];
    f.klass = r.klass;
    f.summary += " " + r.why;
  }
  double conf = 0.5 + sig.priority / 250.0 + (sig.role == Role::cause ? 0.1 : 0.0) + (h.count > 1 ? 0.03 : 0.0);
  f.confidence = std::min(0.95, conf);
  sf.score = sig.priority + (sig.role == Role::cause ? 15.0 : 0.0);
  return sf;
}

// A refinement by the NCCL version the line names (signatures.yaml `nccl_below`, `job_has`): NCCL
// before 2.12 has no ncclRemoteError, so a peer that exits shows up on the others as
// ncclSystemError (NVIDIA/nccl src/nccl.h.in: ncclRemoteError added in 2.12.0). The first
// that applies wins; a `with` refinement the scanner found comes first.
void refine_by_version(ScoredFinding& sf, const SignatureHits& h, const knowledge::Signature& sig,
                       const std::set<std::string>& job_classes) {
  if (h.refinement || !h.earliest) return;
  auto it = h.earliest->fields.find("nccl_version");
  if (it == h.earliest->fields.end()) return;
  auto v = core::Version::parse(core::canonical_nccl_version(it->second));
  if (!v) return;
  for (const auto& r : sig.refine) {
    if (!r.below || !(*v < *r.below)) continue;
    if (!r.job_has.empty() && !job_classes.count(r.job_has)) continue;
    sf.finding.klass = r.klass;
    sf.finding.summary += " " + knowledge::fill_template(r.why, {{"nccl_version", v->str()}});
    return;
  }
}

bool first_before(const TriageEvent& a, const TriageEvent& b) {
  if (a.time && b.time && a.time_is_epoch == b.time_is_epoch) return *a.time < *b.time;
  return a.order < b.order;
}

// A verdict that names no rank (a kernel or nvidia-smi line, an exception printed without a rank
// prefix) takes the ranks of the other failures of its class that do: the rank that printed
// "unspecified launch failure" is the one on the GPU the kernel log says fell off the bus; the rank
// torchrun saw killed with -9 is the one the OOM killer names by pid. These are direct evidence,
// so they come before the timeout cascade's inference.
void lend_same_class_culprits(core::Finding& verdict, const std::vector<ScoredFinding>& all) {
  if (!verdict.culprit.ranks.empty() || verdict.klass == "timeout-hang") return;
  std::set<int> ranks;
  std::vector<std::string> hosts;
  for (std::size_t i = 1; i < all.size(); ++i) {
    const auto& f = all[i].finding;
    if (f.klass != verdict.klass || f.severity < core::Severity::error || f.culprit.ranks.empty()) continue;
    ranks.insert(f.culprit.ranks.begin(), f.culprit.ranks.end());
    for (const auto& h : f.culprit.hosts)
      if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  }
  // Still none, and the verdict names one host (nvidia-smi or the kernel of that node): the ranks on
  // that host that printed an error of their own - any class but the collective's timeouts and lost
  // connections, which every rank prints - ran on the failed part ("CUDA error: unknown error" on
  // the rank whose GPU nvidia-smi can no longer open).
  if (ranks.empty() && verdict.culprit.hosts.size() == 1) {
    const std::string& host = verdict.culprit.hosts.front();
    for (std::size_t i = 1; i < all.size(); ++i) {
      const auto& f = all[i].finding;
      if (f.klass == "timeout-hang" || f.klass == "network-socket" || f.klass == "network-ib" || f.culprit.ranks.empty() ||
          f.culprit.hosts.size() != 1 || f.culprit.hosts.front() != host)
        continue;
      ranks.insert(f.culprit.ranks.begin(), f.culprit.ranks.end());
    }
  }
  verdict.culprit.ranks.assign(ranks.begin(), ranks.end());
  if (verdict.culprit.hosts.empty()) verdict.culprit.hosts = hosts;
}

// The last name of the first Python exception type on the line ("DistStoreError" in
// "torch.distributed.DistStoreError: wait timeout"), or "".
std::string exception_type(std::string_view text) {
  for (std::size_t at = text.find(": "); at != std::string_view::npos; at = text.find(": ", at + 1)) {
    std::size_t b = at;
    while (b > 0 && (std::isalnum(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '_')) --b;
    std::string_view name = text.substr(b, at - b);
    if (name.size() > 5 && std::isupper(static_cast<unsigned char>(name[0])) &&
        (name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Interrupt")))
      return std::string(name);
  }
  return "";
}

// A finding from a catch-all signature (an unclassified NCCL WARN, a bare Python exception: class
// other, priority <= 3) takes the class of the token family its line names (mlx5/verbs ->
// network-ib, socket/connect -> network-socket ...; knowledge/data/error_tokens.yaml), said to be
// inferred, with confidence at most 0.5. NCCL and PyTorch print hundreds of texts no signature
// lists one by one; their words still say which subsystem failed. A bare exception is no failure
// by itself (severity info: an AttributeError in the user's own module), but one whose words name
// a subsystem of the job ("RuntimeError: ... socket ...") is one (severity warn: a verdict, below
// every error signature). A Python exception's type decides before its words do (a
// FileNotFoundError is the application's, a ConnectionResetError a socket's: `exceptions` there).
void infer_unclassified(core::Finding& v, const knowledge::SignatureSet& sigs, const ScanResult& scan) {
  const auto* sig = sigs.find(v.id);
  if (!sig || !knowledge::is_catch_all(*sig) || v.evidence.empty()) return;
  // A known message (the catalogue cites it, with its class) is not re-read by its words: the
  // catalogued verdict speaks for it.
  const auto& ev = v.evidence.front();
  for (const auto& c : scan.catalogued)
    if (c.line == ev.line && c.file < scan.input.files.size() && scan.input.files[c.file] == ev.file) return;
  std::string lower = v.evidence.front().text;
  lower = lower.substr(0, lower.find("  [raised at "));  // the frame's file path is not the message
  // Nor is a source location in the message ("[../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:133]":
  // "tcp" there is a directory, not a socket failure).
  for (std::size_t b = lower.find('['); b != std::string::npos; b = lower.find('[', b + 1)) {
    std::size_t e = lower.find(']', b);
    if (e == std::string::npos || e - b > 300) break;
    std::string_view in(lower.data() + b, e - b);
    if (in.find('/') != std::string_view::npos && in.find(':') != std::string_view::npos)
      lower.replace(b, e - b + 1, e - b + 1, ' ');
  }
  for (char& c : lower)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  // A Python exception's type speaks first (error_tokens.yaml `exceptions`): only a generic one
  // (RuntimeError, DistBackendError …) is read by its words.
  std::string k;
  if (auto type = exception_type(v.evidence.front().text); !type.empty()) k = knowledge::exception_type_class(type);
  if (k.empty()) k = std::string(knowledge::family_class(lower));
  if (k.empty() || k == "other") return;
  v.klass = std::string(k);
  v.summary += " (Class " + v.klass + " inferred from the words of the line, not from a known message.)";
  v.confidence = std::min(v.confidence, 0.5);
  v.severity = std::max(v.severity, core::Severity::warn);
}

// A lost connection (network-socket symptom: the store's "Failed to recv, got 0 bytes") seen only
// in files of agents that were in their exit barrier is that barrier's wait, not a failure of the
// job. Every hit must be one of the kept samples, so that none can be elsewhere.
bool in_exit_barrier(const SignatureHits& h, const knowledge::Signature& sig, const std::set<std::size_t>& files) {
  if (files.empty() || sig.role != Role::symptom || sig.klass != "network-socket") return false;
  if (h.samples.empty() || h.count != h.samples.size()) return false;
  return std::all_of(h.samples.begin(), h.samples.end(), [&](const TriageEvent& ev) { return files.count(ev.file) > 0; });
}

// A network warning (NCCL picked a bridge or IPoIB interface: severity warn, no failure of its
// own) on a job whose NCCL channels all stay inside the node (P2P/SHM channel lines, none via
// NET/...): no data went over that interface, so it is an observation, not the verdict.
void demote_unused_network_warning(ScoredFinding& f, const TopologyFacts& topo) {
  if (f.finding.severity != core::Severity::warn || !f.finding.klass.starts_with("network-")) return;
  if (topo.transports.empty()) return;
  for (const auto& [kind, n] : topo.transports)
    if (kind.starts_with("NET") || kind.find("Net") != std::string::npos) return;
  f.finding.severity = core::Severity::info;
}

}  // namespace

TriageResult correlate(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                       const CorrelateOptions& opts, std::vector<ScoredFinding> extra) {
  TriageResult out;
  out.topology = scan.topology;
  out.input = scan.input;
  for (const auto& [key, p] : scan.processes) {
    if (p.rank) merge_facts(out.ranks[*p.rank], p);
    else if (p.lines > 0 && (p.nccl_version || p.error_lines || p.timeout_op || p.init_start)) out.unranked.push_back(p);
  }
  // A rank's host where its own lines do not carry one ("[rank3]:" prefixes, mpirun's
  // "[1,3]<stderr>:" tags): the host its launcher's exit report gives it (torchrun's failure block
  // "host : H" above "rank : 3", mpirun's "on node H"). Each node's torchrun prints its own
  // block, so across hosts this is where a rank's host comes from.
  for (const auto& [r, e] : scan.exits)
    if (auto it = out.ranks.find(r); it != out.ranks.end() && !it->second.host && e.host && *e.host != "localhost")
      it->second.host = e.host;

  // Signature findings; the earliest error-or-worse hit gets a small bonus: the first failure
  // usually explains what follows it.
  std::vector<ScoredFinding> all;
  std::set<std::string> job_classes;
  for (const auto& h : scan.hits) job_classes.insert(sigs.all()[h.sig].klass);
  const TriageEvent* earliest_error = nullptr;
  std::size_t earliest_idx = 0;
  const std::set<std::size_t> barrier_files = exit_barrier_files(scan, sigs);
  for (std::size_t i = 0; i < scan.hits.size(); ++i) {
    const auto& h = scan.hits[i];
    const auto& sig = sigs.all()[h.sig];
    if (sig.role == Role::context || !h.earliest) continue;
    if (in_exit_barrier(h, sig, barrier_files)) {
      all.push_back(from_hits(h, sig, scan.input, opts.max_evidence, scan.topology.host_of_addr, out.ranks));
      auto& f = all.back().finding;
      f.severity = core::Severity::info;
      f.summary += " (In torchrun's exit barrier: the workers of the node that logged it had finished; "
                   "its agent's wait for the other nodes failed, which torchrun logs and ignores.)";
      continue;
    }
    if (sig.severity >= core::Severity::error && sig.role == Role::cause &&
        (!earliest_error || first_before(*h.earliest, *earliest_error))) {
      earliest_error = &*h.earliest;
      earliest_idx = all.size();
    }
    all.push_back(from_hits(h, sig, scan.input, opts.max_evidence, scan.topology.host_of_addr, out.ranks));
    refine_by_version(all.back(), h, sig, job_classes);
    refine_by_forced_env(all.back(), sig, scan.topology);
    infer_unclassified(all.back().finding, sigs, scan);
  }
  if (earliest_error) all[earliest_idx].score += 5;

  auto derived = derive_findings(out.ranks, out.unranked, scan.topology, opts);
  for (auto& d : derived) all.push_back(std::move(d));
  for (auto& e : extra) all.push_back(std::move(e));
  // torchfrtrace's report pasted into the log: its conclusion from dumps the input may not include.
  for (auto& f : fr_trace_findings(scan, out.ranks)) all.push_back(std::move(f));
  // NCCL's RAS report pasted into the log: the rank behind the others, the ranks that sent no data.
  for (auto& f : ras_findings(scan, out.ranks)) all.push_back(std::move(f));
  // An IB setting forced by the environment that the IB failure points at (config-invalid).
  if (auto f = ib_env_invalid(scan, sigs, all)) all.push_back(std::move(*f));
  // An nccl-tests run in the log, judged against the cost model (slow, wrong results).
  for (const auto& t : scan.nccl_tests)
    for (auto& f : judge::nccl_tests_findings(t.text, scan.input.files.at(t.file))) {
      for (auto& e : f.evidence)
        if (e.line) e.line = t.input_line(*e.line);
      all.push_back(ScoredFinding{f, knowledge::finding_score(f.id)});
    }
  // A known message of NCCL/PyTorch/vLLM/CUDA where nothing else names a cause (before the
  // single-node inference and the inferred verdict: a cited text beats reading the job's shape or words).
  if (auto cat = catalogued_verdict(all, scan, sigs, barrier_files)) all.push_back(std::move(*cat));
  if (auto fb = silent_single_node_exit(all, scan, sigs)) all.push_back(std::move(*fb));
  for (auto& f : all) demote_unused_network_warning(f, scan.topology);
  rank_kill_above_peer_errors(all);
  // Never `none` on a log that holds an error: the strongest unexplained error line, inferred.
  if (std::none_of(all.begin(), all.end(), [](const ScoredFinding& f) { return f.finding.severity >= core::Severity::warn; }))
    if (auto fb = inferred_from_error_lines(scan)) all.push_back(std::move(*fb));

  std::stable_sort(all.begin(), all.end(), [](const ScoredFinding& a, const ScoredFinding& b) {
    if (a.score != b.score) return a.score > b.score;
    return a.finding.severity > b.finding.severity;
  });

  // Severity info is an observation (no IB on this node, a benign torch warning): it is reported,
  // never the verdict.
  auto first_failure = std::find_if(all.begin(), all.end(),
                                    [](const ScoredFinding& f) { return f.finding.severity >= core::Severity::warn; });
  std::rotate(all.begin(), first_failure, first_failure + (first_failure != all.end()));
  if (all.empty() || all.front().finding.severity < core::Severity::warn) {
    out.verdict = knowledge::make_finding(
        "triage.none", {{"lines", std::to_string(scan.input.lines)},
                        {"inputs", std::to_string(scan.input.files.size())},
                        {"observations", all.empty() ? "." : " (" + std::to_string(all.size()) + " observation(s) below)."}},
        scan.input.lines > 0 ? "read" : "nothing-read");
    for (auto& f : all) out.findings.push_back(std::move(f.finding));
    return out;
  }
  out.exits = scan.exits;
  // The rank the others were waiting for (the cause beats the cascade, issue #10 §2).
  attribute_cause(all, scan, sigs, out.ranks);
  out.verdict = all.front().finding;
  // Looked up only now: sorting and rotating move the findings, so a pointer taken before them
  // would name whatever finding ended up in that slot (and lend the verdict that finding's ranks).
  const ScoredFinding* cascade = nullptr;
  for (const auto& f : all)
    if (f.finding.id == "triage.timeout-cascade") cascade = &f;
  lend_same_class_culprits(out.verdict, all);
  // The cascade analysis knows who was not waiting. When the verdict names no rank, or only ranks
  // that were themselves waiting (a timeout or stuck-watchdog line names its reporter, a victim),
  // those ranks are the best culprit we have.
  auto only_waiters = [&] {
    for (int r : out.verdict.culprit.ranks) {
      auto it = out.ranks.find(r);
      if (it == out.ranks.end() || !(it->second.timeout_seq || it->second.timeout_op || it->second.watchdog_stuck))
        return false;
    }
    return !out.verdict.culprit.ranks.empty() && out.verdict.klass == "timeout-hang";
  };
  if (cascade && out.verdict.id != cascade->finding.id && !cascade->finding.culprit.ranks.empty() &&
      ((out.verdict.culprit.ranks.empty() && out.verdict.culprit.hosts.empty()) || only_waiters())) {
    out.verdict.culprit.ranks = cascade->finding.culprit.ranks;
    out.verdict.culprit.hosts = cascade->finding.culprit.hosts;
  } else if (cascade && out.verdict.id != cascade->finding.id && out.verdict.culprit.ranks.empty() &&
             !out.verdict.culprit.hosts.empty() && out.verdict.klass != "timeout-hang") {
    // A fault that names a host and no rank (the kernel log of one node: an Xid, a GPU that stopped)
    // while the others timed out waiting for a rank that printed nothing: that rank sits on the
    // faulty host when its own host is that one or unknown (it left no line to tell). One or two such
    // ranks; more is no single stalled GPU.
    const auto& suspects = cascade->finding.culprit.ranks;
    const auto& vh = out.verdict.culprit.hosts;
    const bool on_host = suspects.size() <= 2 && std::all_of(suspects.begin(), suspects.end(), [&](int r) {
      auto it = out.ranks.find(r);
      return it == out.ranks.end() || !it->second.host ||
             std::find(vh.begin(), vh.end(), *it->second.host) != vh.end();
    });
    if (on_host) out.verdict.culprit.ranks = suspects;
  }
  // Still no culprit: a rank the launcher says exited (torchrun's "Root Cause" rank, mpirun's failed
  // process) and that was not itself waiting left the others behind (a timeout), or is the process
  // the verdict's unattributed line came from (torchrun prints "exitcode: -9" inside the same block).
  // A verdict that names where the fault is without a rank (the store client that connects to
  // the wrong port) keeps it: the first rank to exit is then a victim that gave up waiting. So is a
  // rank that lost its peer ("Connection closed by peer", even a loopback one): another process
  // went away first.
  if (out.verdict.culprit.ranks.empty() && !out.verdict.id.starts_with("triage.store-") &&
      (out.verdict.klass == "timeout-hang" || out.verdict.culprit.hosts.empty())) {
    std::set<int> lost_peer;
    for (const auto& h : scan.hits)
      if (sigs.all()[h.sig].role == Role::symptom)
        for (const auto& ev : h.samples)
          if (ev.rank && !named_peer(ev).empty()) lost_peer.insert(*ev.rank);
    std::set<int> exited;
    for (const auto& f : all)
      if (const auto* s = sigs.find(f.finding.id); s && s->exit_report == knowledge::ExitReport::rank)
        for (int r : f.finding.culprit.ranks) {
          auto it = out.ranks.find(r);
          if (!lost_peer.count(r) && (it == out.ranks.end() || !(it->second.timeout_seq || it->second.timeout_op ||
                                                                   it->second.watchdog_stuck)))
            exited.insert(r);
        }
    out.verdict.culprit.ranks.assign(exited.begin(), exited.end());
    // Two ranks, one lost its only peer, the other shows nothing: that other rank left first.
    if (exited.empty())
      if (auto f = only_peer_left(scan, sigs, out.ranks, out.unranked, lost_peer, out.verdict)) {
        out.findings.push_back(std::move(out.verdict));  // what the victim printed, first below the verdict
        out.verdict = std::move(*f);
      }
  }
  // A lost connection whose peer, as the launcher tells, ended without failing: an early exit.
  if (auto f = peer_left_cleanly(scan, sigs, out.ranks, out.unranked, barrier_files, out.verdict)) {
    out.findings.push_back(std::move(out.verdict));  // what the victim printed, first below the verdict
    out.verdict = std::move(*f);
  }
  // A waiter's own timeout, with no other rank to blame, names the waiter only by accident.
  unname_waiters(out.verdict, all, scan, sigs, out.ranks, out.unranked);
  name_barrier_absentees(out.verdict, scan, sigs, out.ranks);
  name_unstarted_pods(out.verdict, scan, sigs);
  // A verdict that names ranks and no host names their hosts when every one of them is known (the
  // culprit's host is what an operator drains or inspects).
  if (out.verdict.culprit.hosts.empty() && !out.verdict.culprit.ranks.empty())
    out.verdict.culprit.hosts = hosts_of({out.verdict.culprit.ranks.begin(), out.verdict.culprit.ranks.end()}, scan,
                                         out.ranks, /*all_known=*/true);
  if (out.verdict.culprit.hosts.empty() && out.verdict.culprit.ranks.size() == 1)
    if (auto h = host_named_by_victims(out.verdict.culprit.ranks.front(), scan, sigs, out.ranks))
      out.verdict.culprit.hosts = {*h};
  for (std::size_t i = 1; i < all.size(); ++i) out.findings.push_back(std::move(all[i].finding));
  return out;
}

}  // namespace ncdx::analyze
