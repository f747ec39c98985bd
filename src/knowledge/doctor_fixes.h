#pragma once
// The fix texts of doctor's checks (data/doctor_fixes.yaml): one row per situation a check can
// report, so the advice lives once, as data, and tests can read all of it (every NCCL/PyTorch
// setting a fix names goes through `ncdx env lint`, tests/unit/analyze/env/advice_lint_test.cc).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "knowledge/findings.h"

namespace ncdx::knowledge {

struct DoctorFix {
  std::string id;                 // "<check id>.<situation>", e.g. net.socket_ifname.none-up
  std::vector<std::string> vars;  // the {names} its text uses
  std::string fix;
  std::optional<std::string> applies;  // the versions/fabric its settings target ("RoCE, NCCL < 2.21")
};

// Parses doctor_fixes.yaml text; errors are "<source>:<line>: <what was expected>".
core::Result<std::vector<DoctorFix>> parse_doctor_fixes_yaml(std::string_view text, std::string_view source_name);
// The embedded table, in file order; empty when it failed to load (the error is the status).
std::span<const DoctorFix> doctor_fix_table();
core::Status doctor_fix_table_status();
// Row `id`'s text with its {vars} filled. An id not in the table, or a var it does not declare,
// is a bug in ncdx (std::logic_error), as for make_finding.
std::string doctor_fix(std::string_view id, const FindingVars& vars = {});

}  // namespace ncdx::knowledge
