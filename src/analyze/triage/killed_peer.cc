#include "analyze/triage/killed_peer.h"

#include <algorithm>
#include <optional>

namespace ncdx::analyze {

void rank_kill_above_peer_errors(std::vector<ScoredFinding>& all) {
  std::optional<double> kill;
  for (const auto& f : all)
    if (f.finding.klass == "oom" && f.finding.severity >= core::Severity::critical)
      kill = std::max(kill.value_or(f.score), f.score);
  if (!kill) return;
  for (auto& f : all) {
    if (!f.finding.klass.starts_with("network-") || f.score < *kill) continue;
    f.score = *kill - 1;
    f.finding.summary +=
        " A process of this job was killed for memory (see the oom finding): a peer that vanishes leaves its "
        "connections failing this way, so this error is most likely its cascade.";
  }
}

}  // namespace ncdx::analyze
