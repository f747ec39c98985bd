#include "analyze/judge/triage_hook.h"

#include "analyze/judge/judge.h"
#include "analyze/judge/nccl_tests_parse.h"

namespace ncdx::analyze::judge {

std::vector<core::Finding> nccl_tests_findings(std::string_view text, std::string_view file) {
  std::vector<core::Finding> out;
  if (!looks_like_nccl_tests(text)) return out;
  auto runs = parse_nccl_tests(text, file);
  if (!runs.ok()) return out;
  for (const auto& j : judge_runs(*runs, {})) {
    if (j.kind != VerdictKind::Slow && j.kind != VerdictKind::Wrong) continue;
    core::Finding f;
    bool wrong = j.kind == VerdictKind::Wrong;
    f.id = wrong ? "nccl-tests-wrong-results" : "nccl-tests-slow";
    f.klass = wrong ? "data-mismatch" : "p2p-topology";
    f.severity = wrong ? core::Severity::error : core::Severity::warn;
    f.title = (j.test_name.empty() ? std::string("nccl-tests") : j.test_name) + ": " + j.verdict;
    f.summary = wrong ? "nccl-tests found wrong values (#wrong > 0)"
                      : "measured busbw is below what NCCL's cost model expects for this node";
    core::Evidence e;
    e.file = std::string(file);
    e.line = j.first_line;
    e.text = j.verdict;
    f.evidence.push_back(e);
    for (const auto& c : j.causes) f.fixes.push_back({c, std::nullopt, std::nullopt, std::nullopt, "docs/MODEL.md"});
    f.fixes.push_back({"judge it against the cluster: ncdx model --judge FILE --spec \"nodes=N,gpus=G,gpu=...,nic=...\"",
                       std::nullopt, "ncdx model --judge " + std::string(file), std::nullopt, std::nullopt});
    f.confidence = wrong ? 0.9 : 0.6;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace ncdx::analyze::judge
