#include "analyze/triage/from_fr.h"

#include <filesystem>

#include "knowledge/findings.h"

namespace ncdx::analyze {

std::vector<ScoredFinding> score_fr_findings(const FrAnalysis& a) {
  std::vector<ScoredFinding> out;
  for (const auto& f : a.findings) {
    // Each Flight Recorder row's score (findings.yaml): a mismatch the dumps show is a root cause;
    // ranks missing from a collective are stronger than log-inferred cascades, weaker than a
    // specific error line.
    out.push_back(ScoredFinding{f, knowledge::finding_score(f.id)});
  }
  return out;
}

std::string take_fr_inputs(std::vector<InputFile>& files) {
  std::string where;
  std::vector<InputFile> logs;
  for (auto& f : files) {
    auto name = std::filesystem::path(f.path).filename().string();
    if (name.rfind("nccl_trace_rank_", 0) == 0) {
      if (where.empty()) {
        std::filesystem::path dir = std::filesystem::path(f.path).parent_path();
        where = dir.empty() ? std::filesystem::path(".").string() : dir.string();
      }
    } else {
      logs.push_back(std::move(f));
    }
  }
  files = std::move(logs);
  return where;
}

}  // namespace ncdx::analyze
