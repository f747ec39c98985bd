#include "analyze/triage/catalogued.h"

#include <algorithm>
#include <set>
#include <string>

#include "analyze/triage/evidence.h"
#include "knowledge/findings.h"

namespace ncdx::analyze {
namespace {

bool before(const CataloguedLine& a, const CataloguedLine& b) {
  if (a.time && b.time && a.time_is_epoch == b.time_is_epoch && a.file != b.file) return *a.time < *b.time;
  return a.order < b.order;
}

// The texts a rank prints when its peer went away: a socket closed or reset, a collective that
// timed out waiting. The rank that crashed first holds the cause (cascade.cc reasons the same way).
bool victim_class(const std::string& k) { return k == "network-socket" || k == "timeout-hang"; }

// Whether the launcher saw a rank other than `rank` fail first or die of a signal.
bool other_rank_failed_first(const ScanResult& scan, const std::optional<int>& rank) {
  int failed = 0;
  for (const auto& [r, e] : scan.exits) {
    if (!(e.root_cause || e.first_failed || e.signal)) continue;
    if (rank && r == *rank) continue;
    ++failed;
  }
  // A line without a rank in a job of one process is that process's own.
  return failed > 0 && (rank || scan.exits.size() > 1);
}

// NCCL's ncclResult_t texts ("unhandled system error", "invalid argument": the nccl.result.*
// signatures, role symptom) say only which kind of call failed. NCCL prints the failing check as a
// WARN first and its "Last error:" repeats that WARN (src/debug.cc:308@v2.29.7-1 copies each WARN
// into ncclLastError, NCCL >= 2.13), so a WARN that is a known NCCL message names the cause the
// result code wraps.
bool nccl_result_wrapper(const knowledge::Signature& s) {
  return s.role == knowledge::Role::symptom && s.id.starts_with("nccl.result.");
}
bool nccl_warn(const knowledge::CatalogueRow& r) { return r.project == "nccl" && r.kind == "WARN"; }

std::string project_name(const std::string& p) {
  return p == "nccl" ? "NCCL" : p == "pytorch" ? "PyTorch" : p == "vllm" ? "vLLM" : p == "cuda" ? "CUDA" : p;
}

core::Evidence evidence_of(const CataloguedLine& c, const InputSummary& input) {
  core::Evidence e = evidence_at(c, input);
  e.text += "  [" + knowledge::MessageCatalogue::citation(*c.row) + "]";  // where the text comes from
  return e;
}

}  // namespace

// The files in which torchrun's agent logged "Error waiting on exit barrier": only after that
// node's workers all exited 0 (torch/distributed/elastic/agent/server/api.py _invoke_run), and the
// error is logged, not raised.
std::set<std::size_t> exit_barrier_files(const ScanResult& scan, const knowledge::SignatureSet& sigs) {
  std::set<std::size_t> out;
  for (const auto& h : scan.hits)
    if (sigs.all()[h.sig].id == "torch.elastic.exit-barrier-error")
      for (const auto& ev : h.samples) out.insert(ev.file);
  return out;
}

std::optional<ScoredFinding> catalogued_verdict(const std::vector<ScoredFinding>& found, const ScanResult& scan,
                                                const knowledge::SignatureSet& sigs,
                                                const std::set<std::size_t>& barrier_files) {
  if (scan.catalogued.empty()) return std::nullopt;
  bool any_failure = false, wrapped = false;
  double top = 0;
  for (const auto& f : found) {
    if (f.finding.severity < core::Severity::warn) continue;  // an observation, not a cause
    const auto* sig = sigs.find(f.finding.id);
    const bool catch_all = sig && knowledge::is_catch_all(*sig);
    const bool wrapper = sig && nccl_result_wrapper(*sig);
    if (!catch_all && !wrapper && f.finding.klass != "other") return std::nullopt;  // something names a cause
    (wrapper ? wrapped : any_failure) = true;
    top = std::max(top, f.score);
  }
  const CataloguedLine* pick = nullptr;
  auto consider = [&](auto&& ok) {
    for (const auto& c : scan.catalogued)
      if (!c.observation && ok(c) && (!pick || before(c, *pick))) pick = &c;
  };
  if (wrapped) {
    // Under NCCL's result code only the WARN it explains may speak: one no signature classified.
    consider([](const CataloguedLine& c) {
      return !c.explained && nccl_warn(*c.row) && c.row->klass != "other" && !victim_class(c.row->klass);
    });
    if (!pick) return std::nullopt;  // the wrapper's own class stands
  } else {
    consider([](const CataloguedLine& c) { return c.row->klass != "other" && !victim_class(c.row->klass); });
  }
  // A lost connection in the log of an agent that was in its exit barrier is that wait's.
  if (!pick)
    consider([&](const CataloguedLine& c) {
      return victim_class(c.row->klass) && !other_rank_failed_first(scan, c.rank) && !barrier_files.count(c.file);
    });
  // A generic wrapper says only that an error happened; the catch-all finding (or the inferred
  // verdict) already says that much, with a class read from the words.
  if (!pick && !any_failure) consider([](const CataloguedLine& c) { return c.row->klass == "other"; });
  if (!pick) return std::nullopt;
  any_failure = any_failure || wrapped;

  const auto& row = *pick->row;
  const std::string cite = knowledge::MessageCatalogue::citation(row);
  const char* how_sure = row.klass == "other" ? "unclassified" : row.correction.empty() ? "as-catalogued" : "corrected";
  ScoredFinding sf;
  sf.finding = knowledge::make_finding(
      "triage.catalogued",
      {{"project", project_name(row.project)},
       {"klass", row.klass},
       {"cite", cite},
       {"kind", row.kind},
       {"provenance", row.correction.empty() ? std::string("a proposal from the message's words and source file")
                                             : "corrected: " + row.correction}},
      how_sure);
  auto& f = sf.finding;
  f.klass = row.klass;  // the matched row's, not the table's generic one
  f.severity = row.klass == "other" ? core::Severity::warn : core::Severity::error;
  f.evidence.push_back(evidence_of(*pick, scan.input));
  for (const auto& c : scan.catalogued) {
    if (f.evidence.size() >= 4) break;
    if (&c != pick && !c.observation && c.row->klass == row.klass) f.evidence.push_back(evidence_of(c, scan.input));
  }
  if (pick->rank) f.culprit.ranks = {*pick->rank};
  if (pick->host) f.culprit.hosts = {*pick->host};
  // Above the catch-alls it explains, below every cause.
  sf.score = any_failure ? top + 1 : knowledge::finding_score("triage.catalogued");
  return sf;
}

}  // namespace ncdx::analyze
