#pragma once
// Folds a Flight Recorder analysis into triage: its findings become scored candidates for the
// verdict (what the dumps show directly is stronger evidence than a cascade inferred from logs).
#include <string>
#include <vector>

#include "analyze/fr/analyze.h"
#include "analyze/logs/log_source.h"
#include "analyze/triage/verdict.h"

namespace ncdx::analyze {

std::vector<ScoredFinding> score_fr_findings(const FrAnalysis& a);

// Input files that are Flight Recorder dumps (nccl_trace_rank_*), split off from the logs so the
// line scanner does not read pickles. Returns the directory (or file) to hand to read_fr_path.
std::string take_fr_inputs(std::vector<InputFile>& files);

}  // namespace ncdx::analyze
