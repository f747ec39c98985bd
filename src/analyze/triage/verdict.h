#pragma once
// Turns what the scan saw into a diagnosis: separates cause from cascade, names the culprit
// ranks/hosts, and picks one primary root cause (the verdict) with secondary findings.
#include <optional>
#include <vector>

#include "analyze/triage/model.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

struct CorrelateOptions {
  std::optional<long long> expect_timeout_s;  // --expect-timeout: the timeout the user set
  std::size_t max_evidence = 6;
};

// A finding from another analysis (Flight Recorder) with its strength as a root cause.
struct ScoredFinding {
  core::Finding finding;
  double score = 0;
};

TriageResult correlate(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                       const CorrelateOptions& opts, std::vector<ScoredFinding> extra = {});

}  // namespace ncdx::analyze
