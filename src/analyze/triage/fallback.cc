#include "analyze/triage/fallback.h"

#include <algorithm>
#include <set>
#include <string>

#include "knowledge/findings.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

std::optional<ScoredFinding> silent_single_node_exit(const std::vector<ScoredFinding>& found,
                                                     const ScanResult& scan, const knowledge::SignatureSet& sigs) {
  // The launcher's report that a process exited with an error (signatures.yaml `exit_report`).
  auto is_exit = [&](const ScoredFinding& f) {
    const auto* s = sigs.find(f.finding.id);
    return s && s->exit_report != knowledge::ExitReport::none;
  };
  bool exited = false;
  double top = 0;
  for (const auto& f : found) {
    if (f.finding.severity < core::Severity::warn) continue;  // an observation, not a cause
    if (f.finding.klass != "other") return std::nullopt;      // something names a cause
    exited |= is_exit(f);
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
  const std::string& host = *hosts.begin();
  sf.finding = knowledge::make_finding("triage.single-node-silent-exit", {{"host", host}});
  auto& f = sf.finding;
  std::set<int> ranks;
  for (const auto& g : found)
    if (is_exit(g)) {
      ranks.insert(g.finding.culprit.ranks.begin(), g.finding.culprit.ranks.end());
      for (const auto& e : g.finding.evidence)
        if (f.evidence.size() < 4) f.evidence.push_back(e);
    }
  f.culprit.ranks.assign(ranks.begin(), ranks.end());
  f.culprit.hosts = {host};
  sf.score = top + 1;  // only ever chosen over findings that name no cause
  return sf;
}

std::optional<ScoredFinding> inferred_from_error_lines(const ScanResult& scan) {
  if (scan.error_lines.empty()) return std::nullopt;
  const ErrorLine& top = scan.error_lines.front();
  std::string words;
  for (const auto& t : top.tokens) words += (words.empty() ? "" : ", ") + t;
  ScoredFinding sf;
  sf.finding = knowledge::make_finding("triage.inferred", {{"words", words}, {"klass", top.klass}});
  sf.score = knowledge::finding_score("triage.inferred");
  auto& f = sf.finding;
  f.klass = top.klass;  // inferred from the line's error tokens (error_tokens.yaml), not the row's
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
  // Stronger error words make the inference surer, never more than an even chance.
  f.confidence = std::min(0.5, 0.2 + 0.02 * top.score);
  return sf;
}

}  // namespace ncdx::analyze
