#pragma once
// Internal to the FR analysis: the argument checks fr_trace makes between the ranks' entries of
// one collective (COLLECTIVE_TYPE_MISMATCH, SIZE_OR_SYNTAX_MISMATCH incl. the all_to_all numel
// totals, COLLECTIVE_DTYPE_MISMATCH), reported as data-mismatch findings.
#include <set>
#include <vector>

#include "analyze/fr/align.h"
#include "core/finding.h"

namespace ncdx::analyze::fr_detail {

// Adds at most one finding per kind per group; returns every sequence id found mismatched.
std::set<long long> check_mismatches(const PgView& g, std::vector<core::Finding>& out);

}  // namespace ncdx::analyze::fr_detail
