#pragma once
// The finding table (data/findings.yaml): id, class, severity, title/summary/fix templates of the
// findings analyses raise. An analysis names the row and fills its {vars}; the texts live in the
// table, once, and `ncdx docs findings` prints it.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.h"
#include "core/result.h"

namespace ncdx::knowledge {

struct FixTemplate {
  std::string action;
  std::optional<std::string> env, command, applies, doc;
  // A var of the row: the fix is given only when the analysis fills it with a non-empty value
  // (FR's "dump with stacks" fix only when no dump has stacks). Empty: always given.
  std::string when;
};

// A named variant of a row's confidence/score: what the analysis saw decides the case, the table the
// numbers ("a timeout cascade that names a suspect ranks above one that does not: 35 vs 25").
struct FindingCase {
  std::string name;
  std::optional<double> confidence, score;  // unset: the row's own
};

struct FindingDef {
  std::string id;
  std::string klass;
  core::Severity severity = core::Severity::info;
  std::vector<std::string> vars;  // the {names} its texts use
  std::string title, summary;
  std::vector<FixTemplate> fixes;
  // Fixed confidence (0..1) and triage score (the rank of the finding among signature hits, on the
  // scale of signatures.yaml priorities) where the finding has fixed ones; unset where the analysis
  // computes them (how sure depends on what it saw).
  std::optional<double> confidence, score;
  std::vector<FindingCase> cases;
  const FindingCase* find_case(std::string_view name) const;
};

using FindingVars = std::map<std::string, std::string>;

// Parses findings.yaml text; errors are "<source>:<line>: <what was expected>".
core::Result<std::vector<FindingDef>> parse_findings_yaml(std::string_view text, std::string_view source_name);
// The embedded table, in file order; empty when it failed to load (see finding_table_status).
std::span<const FindingDef> finding_table();
core::Status finding_table_status();
const FindingDef* find_finding_def(std::string_view id);
// "{name}" in `text` replaced by vars[name]; a name not in vars is a bug in the caller (throws).
std::string fill_template(std::string_view text, const FindingVars& vars);
// Empty when every {name} of `texts` is one of `vars`, else what is wrong ("undeclared {x}"): a
// table row must say what its analysis fills in.
std::string undeclared_vars(const std::vector<std::string>& vars, const std::vector<std::string_view>& texts);
// The finding of table row `id` with its texts filled and the confidence of case `case_name` (the
// row's own when empty or when the case sets none); culprit and evidence are the caller's.
// An id not in the table, a var it does not declare or a case it does not have is a bug in ncdx
// (std::logic_error).
core::Finding make_finding(std::string_view id, const FindingVars& vars, std::string_view case_name = {});
// The score of case `case_name` (else the row's); none at all, an unknown id or case is a bug in the
// caller (std::logic_error).
double finding_score(std::string_view id, std::string_view case_name = {});
// The same, unset where the row and the case have no score (the analysis computes it).
std::optional<double> fixed_score(std::string_view id, std::string_view case_name = {});

}  // namespace ncdx::knowledge
