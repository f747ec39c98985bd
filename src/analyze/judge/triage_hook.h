#pragma once
// The hook `ncdx triage` calls when a log holds an nccl-tests table (issue #15 "Judging
// results"): the judge's verdict as triage findings. Without --spec the judge can only infer
// single-node clusters from the table's device lines, so multi-node slowness needs
// `ncdx model --judge FILE --spec ...`; wrong results need no model and are always reported.
#include <string_view>
#include <vector>

#include "core/finding.h"

namespace ncdx::analyze::judge {

// Findings for every nccl-tests run in `text` judged slow or wrong (empty when none, or when
// the text has no table). `file` names the input in the evidence.
std::vector<core::Finding> nccl_tests_findings(std::string_view text, std::string_view file);

}  // namespace ncdx::analyze::judge
