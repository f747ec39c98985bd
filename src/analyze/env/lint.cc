// Entry point of the env lint: classifies each variable against the fact tables (fake, never
// read, removed, not yet added, legacy alias, PyTorch alias, unknown), then runs the value and
// combination rules. Rule groups live in env/value_rules.cc, env/algo_rules.cc,
// env/combo_rules.cc and env/torch_rules.cc.
#include "analyze/env/lint.h"

#include <algorithm>

#include "analyze/env/lint_internal.h"
#include "core/near_names.h"
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
            src);
      return;
    case K::log_only:
      c.add(v.name, kWarn, "env.log-only", "no effect: the name only appears in a log message",
            or_unset(v.replacement), v.description, src);
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
  // The NCCL 2.14.3-2.16.2 registration bug (NVIDIA/nccl src/init.cc NCCL_PARAM @ v2.14.3-1): the documented name did nothing.
  if (v.name == "NCCL_ALLOC_P2P_NET_LL_BUFFERS" && c.nccl_known && c.nccl < core::V("2.16.5")) {
    c.add(v.name, kWarn, "env.registration-bug", "no effect on " + c.nccl_label(),
          "NCCL_NCCL_ALLOC_P2P_NET_LL_BUFFERS (the name 2.14.3-2.16.2 actually read)",
          "In 2.14.3-2.16.2 NCCL registered this parameter with a doubled prefix, so only "
          "NCCL_NCCL_ALLOC_P2P_NET_LL_BUFFERS was read; fixed in 2.16.5.",
          src + "; NVIDIA/nccl v2.14.3-1 to v2.16.2-1 NCCL_PARAM");
    return;
  }
  if (v.legacy_alias) {
    std::string why = "Legacy name, still read by NCCL 2.30.7; " + v.replacement + " is the current name";
    const std::string* modern = c.get(v.replacement);
    if (modern) why += " and, being set too, wins over this one";
    why += ".";
    c.add(v.name, kWarn, "env.legacy-alias", modern ? "ignored (the new name is also set)" : "works, but an old name",
          v.replacement + "=" + value, why, src);
  }
  if (v.deprecated && (!c.nccl_known || c.nccl >= *v.deprecated)) {
    c.add(v.name, kWarn, "env.deprecated", "deprecated in NCCL " + v.deprecated->str() + " (still read)",
          or_unset(v.replacement), v.description, src);
  }
  value_rules(c, v, value);
  bool has_row = false;
  for (std::size_t i = start; i < c.rows.size(); ++i) has_row |= c.rows.parameter(i) == v.name;
  if (!has_row) {
    std::string note = v.kind == knowledge::NcclVarKind::nccl_plugin
                           ? "Read only by an NCCL example plugin (" + v.source + ") when that plugin is loaded. "
                           : "";
    c.add(v.name, kPass, "env.known", "", "", note + v.description, src);
  }
}

void unknown(Ctx& c, const std::string& name) {
  // Built once: every unknown name of an untrusted file asks it (core/near_names.h).
  static const core::NearNames names(knowledge::known_env_names(), 3);
  const std::string guess(names.closest(name));
  c.add(name, kWarn, "env.unknown", "no effect: no NCCL or PyTorch version reads this name",
        guess.empty() ? "unset" : guess,
        guess.empty() ? "Not in the NCCL variable table (every tag 2.3.5-2.30.7) nor PyTorch's ProcessGroupNCCL list."
                      : "Not in the NCCL variable table nor PyTorch's list; did you mean " + guess + "?",
        "nccl_env_vars.tsv; torch_env_vars.yaml");
}

}  // namespace
}  // namespace detail

EnvRows lint_env_rows(const EnvLintInput& input) {
  using namespace detail;
  EnvRows rows;
  rows.reserve(input.env.size() + 16);  // most variables make one row (irrelevant ones none)
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
  rows.finish();
  return rows;
}

EnvRow to_row(const EnvRowView& v) {
  return {std::string(v.parameter), std::string(v.value), std::string(v.recommended), std::string(v.risk), v.status,
          std::string(v.why),       std::string(v.source), std::string(v.rule),       std::string(v.origin)};
}

std::vector<EnvRow> lint_env(const EnvLintInput& input) {
  EnvRows rows = lint_env_rows(input);
  std::vector<EnvRow> out;
  out.reserve(rows.size());
  for (const EnvRowView& r : rows) out.push_back(to_row(r));
  return out;
}

nlohmann::json to_json(const EnvRow& r) {
  return to_json(EnvRowView{r.parameter, r.value, r.recommended, r.risk, r.status, r.why, r.source, r.rule, r.origin});
}

nlohmann::json to_json(const EnvRowView& r) {
  // Empty means "nothing to say" (PASS rows have no risk/recommendation): null, never "".
  auto n = [](std::string_view v) { return v.empty() ? nlohmann::json(nullptr) : nlohmann::json(v); };
  return {{"parameter", r.parameter}, {"value", r.value},   {"recommended", n(r.recommended)},
          {"risk", n(r.risk)},        {"status", core::to_string(r.status)}, {"why", n(r.why)},
          {"source", r.source},       {"rule", r.rule},     {"origin", n(r.origin)}};
}

}  // namespace ncdx::analyze
