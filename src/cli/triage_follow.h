#pragma once
// `ncdx triage --follow`: tail logs as a job sidecar, print one alert per new finding, and the
// final verdict when the logs go idle or on Ctrl-C.
#include <string>
#include <vector>

#include "analyze/triage/verdict.h"
#include "cli/command.h"
#include "knowledge/signatures.h"

namespace ncdx::cli {

int run_triage_follow(const std::vector<std::string>& paths, double idle_seconds,
                      const knowledge::SignatureSet& sigs, const analyze::CorrelateOptions& copts,
                      const GlobalOptions& g);

}  // namespace ncdx::cli
