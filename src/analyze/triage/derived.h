#pragma once
// Findings that no single line shows but the set of lines does: version skew across ranks,
// timeout cascades and their culprits, Socket fallback on an IB cluster, ranks that never
// finished init, a timeout that was not applied. Each comes with its strength as a root cause.
#include <map>
#include <vector>

#include "analyze/triage/verdict.h"
#include "analyze/triage/model.h"

namespace ncdx::analyze {

std::vector<ScoredFinding> derive_findings(const std::map<int, ProcessFacts>& ranks,
                                           const std::vector<ProcessFacts>& unranked,
                                           const TopologyFacts& topo,
                                           const CorrelateOptions& opts);

}  // namespace ncdx::analyze
