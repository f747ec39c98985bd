// The lines no signature explains, kept for the verdicts that read them: error evidence (scored by
// knowledge/data/error_tokens.yaml, for the inferred verdict) and lines that are a known message of
// NCCL/PyTorch/vLLM/CUDA (knowledge/data/messages.tsv, for triage.catalogued). Part of Scanner
// (scan.h); split from scan.cc, which reads the line and its signatures.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <vector>

#include "analyze/triage/scan.h"
#include "knowledge/error_tokens.h"
#include "knowledge/message_catalogue.h"

namespace ncdx::analyze {

namespace {
// A cheap pre-check for the evidence scorer: whether some lowercase 4-gram of the line starts an
// evidence token (a bitmap over 4-gram hashes, one shift and test per byte). Most lines of a log
// carry none and never pay for the full scoring.
struct GramGate {
  std::vector<bool> bits = std::vector<bool>(1u << 14);
  std::size_t shortest = 4;
  static unsigned hash(std::uint32_t w) { return (w * 2654435761u) >> 18; }
  explicit GramGate(const knowledge::ErrorTokens& t) {
    for (const auto& e : t.evidence) {
      if (e.token.size() < 4) { shortest = 0; continue; }
      std::uint32_t w = 0;
      for (int i = 0; i < 4; ++i) w = (w << 8) | static_cast<unsigned char>(e.token[i]);
      bits[hash(w)] = true;
    }
  }
  bool maybe(std::string_view s) const {
    if (shortest == 0) return true;
    std::uint32_t w = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 'A' && c <= 'Z') c = static_cast<unsigned char>(c + 32);
      w = (w << 8) | c;
      if (i >= 3 && bits[hash(w)]) return true;
    }
    return false;
  }
};
}  // namespace

void Scanner::note_error_evidence(std::size_t file, long long lineno, std::string_view line, std::string_view text,
                                  const Who& who) {
  const auto& tokens = knowledge::error_tokens();
  if (tokens.evidence.empty()) return;
  static const GramGate gate(tokens);
  std::string_view t = text.substr(0, 512);
  if (!gate.maybe(t)) return;
  lower_.assign(t);
  for (char& c : lower_)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  for (const auto& l : tokens.labels) {
    if (l[0] == '^') {  // only where the text starts (the prefix before it was read as the line's)
      if (lower_.compare(0, l.size() - 1, l, 1) == 0) lower_.replace(0, l.size() - 1, std::string(l.size() - 1, ' '));
      continue;
    }
    for (std::size_t at = lower_.find(l); at != std::string::npos; at = lower_.find(l, at + 1))
      lower_.replace(at, l.size(), std::string(l.size(), ' '));
  }
  // "libibverbs: Warning: couldn't load driver …", "UserWarning: …": a label the program puts on a
  // message it carries on after (error_tokens.yaml `quiet`): no error evidence, whatever follows.
  // The whole line: a logger's own label ("- ERROR -") may wrap the library's ("NCCL INFO").
  std::string whole(line.substr(0, 1024));
  for (char& c : whole)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  for (const auto& q : tokens.quiet)
    if (whole.find(q) != std::string::npos) return;
  ErrorLine el;
  // A token counts as a word: "error" in NCCL_ASYNC_ERROR_HANDLING or "abort" in a function name
  // is not error evidence. A token that begins or ends with a non-word character ("*** process
  // received signal ***", " warn ") carries its own boundary there.
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto found = [&](const std::string& tok) {
    for (std::size_t at = lower_.find(tok); at != std::string::npos; at = lower_.find(tok, at + 1)) {
      bool left = at == 0 || !word(tok.front()) || !word(lower_[at - 1]);
      std::size_t end = at + tok.size();
      if (end < lower_.size() && lower_[end] == 's' && word(tok.back())) ++end;  // a plural: "errors"
      bool right = end >= lower_.size() || !word(tok.back()) || !word(lower_[end]);
      if (left && right) return true;
    }
    return false;
  };
  for (const auto& e : tokens.evidence)
    if (found(e.token)) {
      el.score += e.weight;
      if (el.tokens.size() < 6) el.tokens.push_back(e.token);
    }
  if (el.score < 3) return;  // one weak word ("not found", " warn ") is not a failure
  auto& kept = result_.error_lines;
  if (kept.size() >= opts_.max_error_lines && el.score <= kept.back().score) return;
  el.klass = std::string(knowledge::family_class(lower_, tokens));
  if (el.klass.empty()) el.klass = "other";
  el.file = file;
  el.line = lineno;
  el.order = order_++;
  el.rank = who.rank ? who.rank : hints_[file].rank;
  el.host = who.host ? who.host : hints_[file].host;
  el.text = evidence_text(line);
  auto at = std::upper_bound(kept.begin(), kept.end(), el.score,
                             [](int s, const ErrorLine& e) { return s > e.score; });
  kept.insert(at, std::move(el));
  if (kept.size() > opts_.max_error_lines) kept.pop_back();
}

namespace {
// Lines without a level that still read as an error report: an exception's last line
// ("ValueError: ...", "torch.distributed.DistStoreError: ..."), "[c10d]", "CUDA error:", a failure
// word. Only these are looked up in the catalogue (most lines of a log are INFO and cost nothing).
bool looks_like_error(std::string_view t) {
  for (std::string_view w : {"Error", "error", "Exception", "[c10d]", "fail", "Fail", "FAIL", "Warning", "Timeout",
                             "timed out", "Traceback", "abort", "Abort", "unable", "Unable", "cannot", "Cannot",
                             "invalid", "Invalid", "not supported", "mismatch"})
    if (t.find(w) != std::string_view::npos) return true;
  return false;
}
}  // namespace

void Scanner::note_catalogued(std::size_t file, long long lineno, std::string_view line, std::string_view text,
                              LineLevel level, const Who& who, std::span<const knowledge::SignatureMatch> matches) {
  // INFO lines are the library reporting progress; the catalogue's INFO rows would be observations
  // only, and reading every INFO line of a big NCCL log would cost a scan of each.
  if (level == LineLevel::info) return;
  if (level == LineLevel::unknown && !looks_like_error(text)) return;
  const auto m = knowledge::message_catalogue().match(text.substr(0, 4096));
  if (!m) return;
  const auto& row = *m->row;
  if (row.klass == "info-only") return;
  // A warning-level print (Python logging WARNING, glog W, warnings.warn, TORCH_WARN) is the library
  // carrying on; NCCL's WARN is its error channel (every failure it returns prints one).
  bool observation = knowledge::MessageCatalogue::carries_on(row) ||
                     (level == LineLevel::warn && row.project != "nccl");
  // A signature that reads the line as an observation (severity info: NCCL 2.28's "Got non-fatal
  // async event", a GID table change) outranks the catalogue's proposal from the message's words;
  // any other signature has classified the line itself. A catch-all (a bare exception, severity
  // info too) classifies nothing: the catalogue's row is the better reading.
  bool explained = false;
  for (const auto& m : matches) {
    const auto& sig = sigs_.all()[m.index];
    if (knowledge::is_catch_all(sig) || sig.role == knowledge::Role::context) continue;
    explained = true;
    if (sig.severity == core::Severity::info) observation = true;
  }
  auto& kept = result_.catalogued;
  const bool generic = row.klass == "other";
  std::size_t same = 0;
  for (const auto& c : kept) same += c.observation == observation && (c.row->klass == "other") == generic;
  if (same >= opts_.max_catalogued) return;
  CataloguedLine c;
  c.row = &row;
  c.observation = observation;
  c.explained = explained;
  c.file = file;
  c.line = lineno;
  c.order = order_++;
  c.rank = who.rank ? who.rank : hints_[file].rank;
  c.host = who.host ? who.host : hints_[file].host;
  c.pid = who.pid ? who.pid : hints_[file].pid;
  c.time = who.time;
  c.time_is_epoch = who.epoch;
  c.time_text = who.time_text;
  c.text = evidence_text(line);
  kept.push_back(std::move(c));
}

}  // namespace ncdx::analyze
