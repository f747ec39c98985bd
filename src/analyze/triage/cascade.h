#pragma once
// Cause versus cascade across the ranks of one job (issue #10 §2). In a collective job one rank's
// failure makes every other rank fail too: they time out waiting for it, or lose their connection
// to it. Their errors are louder (more ranks, "timeout", "connection closed") than the one line
// of the rank at fault. This pass looks at the whole job — the set of ranks, what each reported,
// how the launcher says each ended — and names the rank the others were waiting for:
//  1. the odd fingerprint in a collective-mismatch report (majority vote per rank);
//  2. a rank that failed with its own error (an application exception, OOM, CUDA error, a
//     non-distributed failure) while the others report only collective errors;
//  3. a rank the launcher says died of a crash signal (SIGKILL, SIGSEGV, SIGABRT, SIGBUS ...);
//  4. a rank that was in a different torch.distributed call than the others when they failed;
//  5. the silent rank: it did not report the timeout/connection error that all others report.
// In a job of exactly two ranks whose lines read the same whichever rank is at fault (the store
// server and its only client, two fingerprints, a timeout and the connection its exit closed:
// pair.h) both ranks are named, and the verdict says either may be at fault.
// The verdict then says so in words and names that rank; the launcher's own "first observed
// failure" stays a hint (it names the first rank to exit, most often a victim).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyze/triage/job_ranks.h"
#include "analyze/triage/model.h"
#include "analyze/triage/verdict.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

// `all` holds every finding, strongest first; all.front() is the verdict chosen so far. May put a
// different finding in front, or change the front one's culprit and summary.
void attribute_cause(std::vector<ScoredFinding>& all, const ScanResult& scan, const knowledge::SignatureSet& sigs,
                     const std::map<int, ProcessFacts>& ranks);

}  // namespace ncdx::analyze
