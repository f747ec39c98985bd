#include "analyze/judge/triage_hook.h"

#include "analyze/judge/judge.h"
#include "analyze/judge/nccl_tests_parse.h"
#include "knowledge/findings.h"

namespace ncdx::analyze::judge {

std::vector<core::Finding> nccl_tests_findings(std::string_view text, std::string_view file) {
  std::vector<core::Finding> out;
  if (!looks_like_nccl_tests(text)) return out;
  auto runs = parse_nccl_tests(text, file);
  if (!runs.ok()) return out;
  for (const auto& j : judge_runs(*runs, {})) {
    if (j.kind != VerdictKind::Slow && j.kind != VerdictKind::Wrong) continue;
    const bool wrong = j.kind == VerdictKind::Wrong;
    const knowledge::FindingVars vars{{"test", j.test_name.empty() ? std::string("nccl-tests") : j.test_name},
                                      {"verdict", j.verdict},
                                      {"file", std::string(file)}};
    core::Finding f = wrong ? knowledge::make_finding("judge.nccl-tests-wrong-results", vars)
                            : knowledge::make_finding("judge.nccl-tests-slow", vars);
    core::Evidence e;
    e.file = std::string(file);
    e.line = j.first_line;
    e.text = j.verdict;
    f.evidence.push_back(e);
    // The judge's likely causes from the topology and the log, most likely first.
    std::vector<core::Fix> causes;
    for (const auto& c : j.causes) causes.push_back({c, std::nullopt, std::nullopt, std::nullopt, "docs/MODEL.md"});
    f.fixes.insert(f.fixes.begin(), causes.begin(), causes.end());
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace ncdx::analyze::judge
