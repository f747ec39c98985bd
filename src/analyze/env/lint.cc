// Entry point of the env lint: classifies each variable against the fact tables (fake, never
// read, removed, not yet added, legacy alias, PyTorch alias, unknown), then runs the value and
// combination rules. Rule groups live in env/value_rules.cc, env/algo_rules.cc,
// env/combo_rules.cc and env/torch_rules.cc.
#include "analyze/env/lint.h"

#include <algorithm>
#include <set>

#include "analyze/env/lint_internal.h"
#include "core/strings.h"

namespace ncdx::analyze {
namespace detail {

std::string tsv_source(const knowledge::NcclVar& v) {
  return "nccl_env_vars.tsv:" + std::to_string(v.tsv_line) + " " + v.name + " (" + v.source + ")";
}

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool relevant(std::string_view name) {
  return starts_with(name, "NCCL_") || starts_with(name, "TORCH_NCCL_") || starts_with(name, "TORCH_FR_") ||
         starts_with(name, "TORCH_DISTRIBUTED_") || knowledge::find_torch_var(name) != nullptr;
}

std::string or_unset(const std::string& replacement) {
  return replacement.empty() ? "unset" : replacement;
}

void classify_nccl(Ctx& c, const knowledge::NcclVar& v, const std::string& value) {
  using K = knowledge::NcclVarKind;
  const std::size_t start = c.rows.size();
  const std::string src = tsv_source(v);
  switch (v.kind) {
    case K::fake:
      c.add(v.name, kWarn, "env.fake", "no effect: never read by NCCL", or_unset(v.replacement),
            "Not an NCCL variable: no NCCL tag (v1.x to v2.30.7) and no known plugin reads it. " + v.description, src);
      return;
    case K::docs_only:
      c.add(v.name, kWarn, "env.never-read", "no effect: not read by any NCCL source since 2.3.5",
            or_unset(v.replacement), v.description, src);
      return;
    case K::external_plugin:
      c.add(v.name, kWarn, "env.external-plugin", "no effect unless nccl-rdma-sharp-plugins is loaded",
            or_unset(v.replacement),
            "Core NCCL never reads it; only the external nccl-rdma-sharp-plugins network/CollNet plugin does. " +
                v.description,
            src + "; nccl_facts.md §1.2");
      return;
    case K::log_only:
      c.add(v.name, kWarn, "env.log-only", "no effect: the name only appears in a log message",
            or_unset(v.replacement), v.description, src + "; nccl_facts.md §1.2");
      return;
    case K::pytorch_alias:
      c.add(v.name, kWarn, "env.pytorch-alias", "not an NCCL variable (PyTorch only)", or_unset(v.replacement),
            v.description, src);
      return;
    case K::nccl:
    case K::nccl_plugin:
      break;
  }
  if (v.removed && (!c.nccl_known || c.nccl >= *v.removed)) {
    std::string last = v.last ? " (last in " + v.last->str() + ")" : "";
    c.add(v.name, kWarn, "env.removed",
          c.nccl_known ? "no effect on " + c.nccl_label() : "no effect on NCCL >= " + v.removed->str(),
          or_unset(v.replacement),
          "Removed in NCCL " + v.removed->str() + last + "; setting it does nothing on any later version. " +
              v.description,
          src);
    return;
  }
  if (c.nccl_known && v.since && !v.since_is_upper_bound && c.nccl < *v.since) {
    c.add(v.name, kWarn, "env.not-yet", "no effect on " + c.nccl_label(), "upgrade NCCL to >= " + v.since->str() + " or unset",
          "First read by NCCL " + v.since->str() + "; " + c.nccl_label() + " ignores it. " + v.description, src);
    return;
  }
  // The NCCL 2.14.3-2.16.2 registration bug (nccl_facts.md §1.2): the documented name did nothing.
  if (v.name == "NCCL_ALLOC_P2P_NET_LL_BUFFERS" && c.nccl_known && c.nccl < core::V("2.16.5")) {
    c.add(v.name, kWarn, "env.registration-bug", "no effect on " + c.nccl_label(),
          "NCCL_NCCL_ALLOC_P2P_NET_LL_BUFFERS (the name 2.14.3-2.16.2 actually read)",
          "In 2.14.3-2.16.2 NCCL registered this parameter with a doubled prefix, so only "
          "NCCL_NCCL_ALLOC_P2P_NET_LL_BUFFERS was read; fixed in 2.16.5.",
          src + "; nccl_facts.md §1.2");
    return;
  }
  if (v.legacy_alias) {
    std::string why = "Legacy name, still read by NCCL 2.30.7; " + v.replacement + " is the current name";
    const std::string* modern = c.get(v.replacement);
    if (modern) why += " and, being set too, wins over this one";
    why += ".";
    c.add(v.name, kWarn, "env.legacy-alias", modern ? "ignored (the new name is also set)" : "works, but an old name",
          v.replacement + "=" + value, why, src + "; nccl_facts.md §1.2");
  }
  if (v.deprecated && (!c.nccl_known || c.nccl >= *v.deprecated)) {
    c.add(v.name, kWarn, "env.deprecated", "deprecated in NCCL " + v.deprecated->str() + " (still read)",
          or_unset(v.replacement), v.description, src + "; nccl_facts.md §1.2");
  }
  value_rules(c, v, value);
  bool has_row = false;
  for (std::size_t i = start; i < c.rows.size(); ++i) has_row |= c.rows[i].parameter == v.name;
  if (!has_row) {
    std::string note = v.kind == knowledge::NcclVarKind::nccl_plugin
                           ? "Read only by an NCCL example plugin (" + v.source + ") when that plugin is loaded. "
                           : "";
    c.add(v.name, kPass, "env.known", "", "", note + v.description, src);
  }
}

// Levenshtein distance capped at K+1, computed only inside the diagonal band |i-j| <= K: the
// "did you mean" search runs for every unknown name of an untrusted file, so it must stay
// O(len * K) instead of O(len^2) per candidate.
constexpr std::size_t kMaxSuggest = 3;
std::size_t banded_distance(std::string_view a, std::string_view b) {
  constexpr std::size_t K = kMaxSuggest, INF = K + 1;
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > K) return INF;
  std::vector<std::size_t> prev(b.size() + 1, INF), cur(b.size() + 1, INF);
  for (std::size_t j = 0; j <= std::min(b.size(), K); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t lo = i > K ? i - K : 0, hi = std::min(b.size(), i + K);
    std::fill(cur.begin(), cur.end(), INF);
    if (lo == 0) cur[0] = i;
    std::size_t best = INF;
    for (std::size_t j = std::max<std::size_t>(lo, 1); j <= hi; ++j) {
      std::size_t v = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      cur[j] = std::min(v, INF);
      best = std::min(best, cur[j]);
    }
    if (lo == 0) best = std::min(best, cur[0]);
    if (best > K) return INF;  // every cell of the band is already too far
    std::swap(prev, cur);
  }
  return std::min(prev[b.size()], INF);
}

void unknown(Ctx& c, const std::string& name) {
  static const std::vector<std::string> names = knowledge::known_env_names();
  std::string guess;
  std::size_t best = kMaxSuggest + 1;
  for (const auto& n : names)
    if (auto d = banded_distance(name, n); d < best) { best = d; guess = n; }
  c.add(name, kWarn, "env.unknown", "no effect: no NCCL or PyTorch version reads this name",
        guess.empty() ? "unset" : guess,
        guess.empty() ? "Not in the NCCL variable table (every tag 2.3.5-2.30.7) nor PyTorch's ProcessGroupNCCL list."
                      : "Not in the NCCL variable table nor PyTorch's list; did you mean " + guess + "?",
        "nccl_env_vars.tsv; torch_env_vars.yaml");
}

}  // namespace
}  // namespace detail

std::vector<EnvRow> lint_env(const EnvLintInput& input) {
  using namespace detail;
  std::vector<EnvRow> rows;
  Ctx c{input, rows, input.nccl.value_or(newest_nccl()), input.nccl.has_value()};
  for (const auto& [name, value] : input.env) {
    if (!relevant(name)) continue;
    bool alias = false;
    if (const auto* t = knowledge::find_torch_var(name, &alias)) {
      torch_rules(c, name, value, *t, alias);
    } else if (const auto* v = knowledge::find_nccl_var(name)) {
      classify_nccl(c, *v, value);
    } else {
      unknown(c, name);
    }
  }
  combo_rules(c);
  // A PASS row says "nothing to report"; drop it where another rule reported on the same variable.
  std::set<std::string> reported;
  for (const auto& r : rows)
    if (r.status != core::Outcome::pass) reported.insert(r.parameter);
  std::erase_if(rows, [&](const EnvRow& r) { return r.status == core::Outcome::pass && reported.count(r.parameter); });
  std::stable_sort(rows.begin(), rows.end(), [](const EnvRow& a, const EnvRow& b) {
    return a.parameter != b.parameter ? a.parameter < b.parameter : a.rule < b.rule;
  });
  return rows;
}

nlohmann::json to_json(const EnvRow& r) {
  // Empty means "nothing to say" (PASS rows have no risk/recommendation): null, never "".
  auto n = [](const std::string& v) { return v.empty() ? nlohmann::json(nullptr) : nlohmann::json(v); };
  return {{"parameter", r.parameter}, {"value", r.value},   {"recommended", n(r.recommended)},
          {"risk", n(r.risk)},        {"status", core::to_string(r.status)}, {"why", n(r.why)},
          {"source", r.source},       {"rule", r.rule},     {"origin", n(r.origin)}};
}

}  // namespace ncdx::analyze
