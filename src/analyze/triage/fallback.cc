#include "analyze/triage/fallback.h"

#include <algorithm>
#include <set>
#include <string>

namespace ncdx::analyze {

std::optional<ScoredFinding> silent_single_node_exit(const std::vector<ScoredFinding>& found,
                                                     const ScanResult& scan) {
  static const std::set<std::string> exits = {"mpi.process-exited-nonzero", "mpi.failed-process",
                                              "torch.elastic.child-failed", "torch.elastic.root-cause-rank"};
  bool exited = false;
  double top = 0;
  for (const auto& f : found) {
    if (f.finding.severity < core::Severity::warn) continue;  // an observation, not a cause
    if (f.finding.klass != "other") return std::nullopt;      // something names a cause
    exited |= exits.count(f.finding.id) > 0;
    top = std::max(top, f.score);
  }
  if (!exited) return std::nullopt;
  // NCCL's own lines carry "host:pid:tid [cudaDev]": processes with a device ran NCCL.
  std::set<std::string> hosts;
  std::set<int> devs;
  for (const auto& [key, p] : scan.processes) {
    if (p.host) hosts.insert(*p.host);
    devs.insert(p.cuda_devs.begin(), p.cuda_devs.end());
  }
  if (hosts.size() != 1 || devs.empty()) return std::nullopt;

  ScoredFinding sf;
  auto& f = sf.finding;
  f.id = "triage.single-node-silent-exit";
  f.klass = "p2p-topology";
  f.severity = core::Severity::error;
  f.title = "A process of a single-node NCCL job exited without printing its error";
  const std::string& host = *hosts.begin();
  f.summary = "NCCL ran on one node only (" + host +
              ") and a process exited with an error that the log does not show. On one node NCCL connects "
              "the GPUs through P2P (NVLink/PCIe) or SHM only, and a process that fails once NCCL has set up "
              "its peers most often failed P2P: peer mappings used up by another user of the GPUs (Xorg or "
              "another display server), P2P blocked by PCIe ACS/IOMMU, or not supported between these GPUs. "
              "This is an inference from the shape of the job; the bisection below confirms or clears it.";
  std::set<int> ranks;
  for (const auto& g : found)
    if (exits.count(g.finding.id)) {
      ranks.insert(g.finding.culprit.ranks.begin(), g.finding.culprit.ranks.end());
      for (const auto& e : g.finding.evidence)
        if (f.evidence.size() < 4) f.evidence.push_back(e);
    }
  f.culprit.ranks.assign(ranks.begin(), ranks.end());
  f.culprit.hosts = {host};
  f.fixes = {
      {"Rerun with NCCL's warnings on so the failing rank prints its error (and the P2P setup it tried)",
       "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P", std::nullopt, std::nullopt, std::nullopt},
      {"Run once with P2P disabled: if it passes, P2P between these GPUs is the fault", "NCCL_P2P_DISABLE=1",
       std::nullopt, std::nullopt, std::nullopt},
      {"Check peer access between every GPU pair, and ACS/IOMMU on the PCIe switches", std::nullopt,
       "nvidia-smi topo -p2p r; ncdx doctor", std::nullopt, std::nullopt},
      {"Keep display servers and other processes off the compute GPUs (nvidia-smi lists them): they hold peer "
       "mappings NCCL needs",
       std::nullopt, "nvidia-smi", std::nullopt, std::nullopt}};
  f.confidence = 0.4;
  sf.score = top + 1;  // only ever chosen over findings that name no cause
  return sf;
}

std::optional<ScoredFinding> inferred_from_error_lines(const ScanResult& scan) {
  if (scan.error_lines.empty()) return std::nullopt;
  const ErrorLine& top = scan.error_lines.front();
  ScoredFinding sf;
  auto& f = sf.finding;
  f.id = "triage.inferred";
  f.klass = top.klass;
  f.severity = core::Severity::error;
  f.title = "Inferred: an error no known signature explains";
  std::string words;
  for (const auto& t : top.tokens) words += (words.empty() ? "" : ", ") + t;
  f.summary = "No known failure signature matched, but the log holds error lines; the strongest (" + words +
              ") is shown below. The class (" + top.klass +
              ") is inferred from the words on it, not from a known message: read the lines before trusting it.";
  std::set<int> ranks;
  for (const auto& e : scan.error_lines) {
    if (f.evidence.size() >= 4) break;
    core::Evidence ev;
    ev.file = e.file < scan.input.files.size() ? scan.input.files[e.file] : std::string();
    ev.line = e.line;
    ev.rank = e.rank;
    ev.host = e.host;
    ev.text = e.text;
    f.evidence.push_back(std::move(ev));
  }
  if (top.rank) f.culprit.ranks = {*top.rank};
  if (top.host) f.culprit.hosts = {*top.host};
  f.fixes = {{"Search the strongest line's text in the project's issue tracker; rerun with more logging "
              "(NCCL_DEBUG=WARN, TORCH_DISTRIBUTED_DEBUG=DETAIL) so a known message names the cause",
              "NCCL_DEBUG=WARN TORCH_DISTRIBUTED_DEBUG=DETAIL", std::nullopt, std::nullopt, std::nullopt}};
  f.confidence = std::min(0.5, 0.2 + 0.02 * top.score);
  sf.score = 1;  // below every signature: only when nothing else names a failure
  return sf;
}

}  // namespace ncdx::analyze
