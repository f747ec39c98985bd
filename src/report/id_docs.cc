// describe_id: one entry of the signature, finding, doctor-check, audit-rule or env tables (id_docs.h).
#include "report/id_docs.h"

#include "analyze/doctor/check.h"
#include "knowledge/audit_rules.h"
#include "knowledge/env_vars.h"
#include "knowledge/findings.h"
#include "knowledge/signatures.h"

namespace ncdx::report {
namespace {

const knowledge::SignatureSet* signatures() {
  static const auto set = knowledge::SignatureSet::load_embedded();
  return set.ok() ? &set.value() : nullptr;
}

void fix_lines(std::string& out, const core::Fix& f, int n) {
  out += "  " + std::to_string(n) + ". " + f.action + "\n";
  if (f.env) out += "     env: " + *f.env + "\n";
  if (f.command) out += "     run: " + *f.command + "\n";
  if (f.applies) out += "     applies: " + *f.applies + "\n";
  if (f.doc) out += "     see: " + *f.doc + "\n";
}

std::string field(const char* name, const std::string& value) {
  return value.empty() ? "" : std::string(name) + ": " + value + "\n";
}

}  // namespace

std::optional<std::string> describe_id(std::string_view id) {
  if (const auto* set = signatures()) {
    if (const knowledge::Signature* s = set->find(id)) {
      std::string out = s->id + " — triage signature (knowledge/data/signatures.yaml)\n" + field("title", s->title) +
                        field("class", s->klass) + field("severity", core::to_string(s->severity)) +
                        field("cause", s->cause);
      if (!s->fixes.empty()) out += "fixes:\n";
      for (std::size_t i = 0; i < s->fixes.size(); ++i) fix_lines(out, s->fixes[i], static_cast<int>(i + 1));
      if (!s->examples.empty()) out += "a line it matches:\n  " + s->examples.front() + "\n";
      for (const auto& r : s->refs) out += "source: " + r + "\n";
      return out;
    }
  }
  if (const knowledge::FindingDef* f = knowledge::find_finding_def(id)) {
    std::string out = f->id + " — finding (knowledge/data/findings.yaml)\n" + field("title", f->title) +
                      field("class", f->klass) + field("severity", core::to_string(f->severity)) +
                      field("summary", f->summary);
    if (!f->fixes.empty()) out += "fixes:\n";
    int n = 0;
    for (const auto& fx : f->fixes) fix_lines(out, core::Fix{fx.action, fx.env, fx.command, fx.applies, fx.doc}, ++n);
    return out;
  }
  for (const auto& c : analyze::doctor_checks()) {
    if (id != c.id) continue;
    return std::string(c.id) + " — doctor check (analyze/doctor/registry.cc)\n" + field("title", c.title) +
           field("category", c.category) + field("cost", c.cost) + field("applies", c.applies) + field("fact", c.fact);
  }
  if (const knowledge::AuditRuleInfo* r = knowledge::find_audit_rule(id)) {
    std::string out = r->id + " — audit rule (knowledge/data/audit_rules.yaml)\n" + field("title", r->title) +
                      field("rationale", r->rationale) + field("message", r->message) + field("source", r->source);
    for (const auto& [k, v] : r->thresholds) out += "threshold " + k + " = " + std::to_string(v) + " (--threshold " + r->id + "." + k + "=VALUE)\n";
    return out;
  }
  if (const knowledge::NcclVar* v = knowledge::find_nccl_var(id)) {
    return v->name + " — NCCL environment variable (knowledge/data/nccl_env_vars.tsv:" + std::to_string(v->tsv_line) + ")\n" +
           field("kind", knowledge::to_string(v->kind)) + field("type", v->type) + field("default", v->default_value) +
           field("values", v->values) + field("since", v->since_text) + field("until", v->until_text) +
           field("replacement", v->replacement) + field("meaning", v->description) + field("source", v->source);
  }
  bool alias = false;
  if (const knowledge::TorchVar* t = knowledge::find_torch_var(id, &alias)) {
    return t->name + " — PyTorch environment variable (knowledge/data/torch_env_vars.yaml)" +
           (alias ? std::string(", of which ") + std::string(id) + " is an alias" : std::string()) + "\n" +
           field("type", t->type) + field("default", t->default_value) + field("older default", t->older_default) +
           field("values", t->values) + field("meaning", t->meaning) + field("deprecated", t->deprecated) +
           field("source", t->source);
  }
  return std::nullopt;
}

std::vector<std::string> documented_ids() {
  std::vector<std::string> out;
  if (const auto* set = signatures())
    for (const auto& s : set->all()) out.push_back(s.id);
  for (const auto& f : knowledge::finding_table()) out.push_back(f.id);
  for (const auto& c : analyze::doctor_checks()) out.emplace_back(c.id);
  if (auto rules = knowledge::audit_rules(); rules.ok())
    for (const auto& r : *rules.value()) out.push_back(r.id);
  for (const auto& v : knowledge::nccl_vars()) out.push_back(v.name);
  for (const auto& t : knowledge::torch_vars()) out.push_back(t.name);
  return out;
}

}  // namespace ncdx::report
