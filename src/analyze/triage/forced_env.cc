#include "analyze/triage/forced_env.h"

#include <algorithm>
#include <set>
#include <string>

#include "analyze/triage/evidence.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
namespace {

// The kept lines of signature `id` whose text holds `needle` (any line when empty): the first one,
// and the distinct hosts of all of them.
struct Samples {
  const TriageEvent* first = nullptr;
  std::set<std::string> hosts;
};
Samples samples_of(const ScanResult& scan, const knowledge::SignatureSet& sigs, std::string_view id,
                   std::string_view needle) {
  Samples out;
  for (const auto& h : scan.hits) {
    if (sigs.all()[h.sig].id != id) continue;
    for (const auto& ev : h.samples) {
      if (!needle.empty() && ev.text.find(needle) == std::string::npos) continue;
      if (!out.first) out.first = &ev;
      if (ev.host) out.hosts.insert(*ev.host);
    }
  }
  return out;
}

// The highest score among failures (error or worse) of these classes; nullopt when there is none.
std::optional<double> failure_score(const std::vector<ScoredFinding>& all, std::initializer_list<std::string_view> classes) {
  std::optional<double> best;
  for (const auto& f : all)
    if (f.finding.severity >= core::Severity::error &&
        std::find(classes.begin(), classes.end(), f.finding.klass) != classes.end())
      best = std::max(best.value_or(f.score), f.score);
  return best;
}

}  // namespace

std::optional<ScoredFinding> ib_env_invalid(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                            const std::vector<ScoredFinding>& all) {
  const auto& topo = scan.topology;
  // -1 is NCCL's own default (automatic GID selection, 2.21+): not a forced index.
  if (!topo.ib_gid_index_env.empty() && topo.ib_gid_index_env != "-1") {
    // EINVAL as NCCL prints it: "failed with 22 Invalid argument" (2.19+), "failed with error
    // Invalid argument" before.
    // The setting is wrong when the index fails on more than one node (or the log names none).
    // When one node alone shows it, the same EINVAL is as likely that node's GID table (e.g. its
    // RoCE netdev lost its IPv4 address, so the RoCE v2 IPv4 entry the cluster forces is empty
    // there: bank case holdout-roce-gid-index-empty-entry, network-ib); the log cannot tell the
    // two apart, and the node's own failure (network-ib, with NCCL's GID hint) stays the verdict.
    const auto einval = samples_of(scan, sigs, "nccl.ib.modify-qp-failed", "Invalid argument");
    if (const TriageEvent* ev = einval.first; ev && einval.hosts.size() != 1) {
      ScoredFinding sf;
      sf.finding = knowledge::make_finding("triage.ib-env-invalid",
                                           {{"var", "NCCL_IB_GID_INDEX"}, {"value", topo.ib_gid_index_env},
                                            {"what", "ibv_modify_qp failed with EINVAL: the forced GID index is not "
                                                     "a valid (routable RoCE v2) GID of the port or of the peer"}},
                                           "gid");
      sf.finding.culprit.component = "NCCL_IB_GID_INDEX=" + topo.ib_gid_index_env;
      sf.finding.evidence.push_back(evidence_at(*ev, scan.input));
      sf.score = failure_score(all, {"network-ib"}).value_or(knowledge::finding_score("triage.ib-env-invalid", "gid")) + 1;
      return sf;
    }
  }
  if (!topo.ib_hca_env.empty() && topo.ib_no_device) {
    const auto failed = failure_score(all, {"network-ib", "network-socket", "timeout-hang"});
    ScoredFinding sf;
    sf.finding = knowledge::make_finding(
        "triage.ib-env-invalid",
        {{"var", "NCCL_IB_HCA"}, {"value", topo.ib_hca_env},
         {"what", "NCCL then found no IB device (\"NET/IB : No device found\"): the list matched no HCA of the node, "
                  "so NCCL used TCP sockets"}},
        failed ? "hca" : "hca_fallback");
    // Nothing failed: the job ran over sockets, slower, not broken. An observation only: the
    // slowness is the socket fallback's (triage.socket-fallback-on-ib, class network-ib; the bank
    // case nccl-ib-hca-filter-typo-no-device is labelled so).
    if (!failed) sf.finding.severity = core::Severity::info;
    sf.finding.culprit.component = "NCCL_IB_HCA=" + topo.ib_hca_env;
    if (const TriageEvent* ev = samples_of(scan, sigs, "nccl.ib.no-device", {}).first)
      sf.finding.evidence.push_back(evidence_at(*ev, scan.input));
    sf.score = failed ? *failed + 1 : knowledge::finding_score("triage.ib-env-invalid", "hca_fallback");
    return sf;
  }
  return std::nullopt;
}

void refine_by_forced_env(ScoredFinding& sf, const knowledge::Signature& sig, const TopologyFacts& topo) {
  if (sig.id != "vllm.nccl-load-failed" || topo.vllm_nccl_so_path.empty()) return;
  sf.finding.klass = "config-invalid";
  sf.finding.culprit.component = "VLLM_NCCL_SO_PATH=" + topo.vllm_nccl_so_path;
  sf.finding.summary += " VLLM_NCCL_SO_PATH is set (" + topo.vllm_nccl_so_path +
                        "): vLLM loaded the library the user chose, and that path does not load — a configuration "
                        "error (point it at a libnccl.so.2 that exists for this CUDA, or unset it to use torch's).";
}

}  // namespace ncdx::analyze
