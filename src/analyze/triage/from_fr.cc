#include "analyze/triage/from_fr.h"

#include <filesystem>

namespace ncdx::analyze {

std::vector<ScoredFinding> score_fr_findings(const FrAnalysis& a) {
  std::vector<ScoredFinding> out;
  for (const auto& f : a.findings) {
    ScoredFinding sf{f, 40};
    // A mismatch the dumps show (op/size/dtype/version) is a root cause; ranks missing from a
    // collective are stronger than log-inferred cascades but weaker than a specific error line.
    if (f.klass == "data-mismatch") sf.score = 80;
    else if (f.klass == "version-mismatch") sf.score = 85;
    else if (f.klass == "timeout-hang") sf.score = f.culprit.ranks.empty() ? 30 : 45;
    out.push_back(std::move(sf));
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
