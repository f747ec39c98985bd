#pragma once
// The printable per-group table of a Flight Recorder analysis: members, dumps, last completed and
// enqueued seq per rank group, first unfinished collective, status.
#include <string>

#include "analyze/fr/analyze.h"

namespace ncdx::report {

std::string format_fr_summary(const analyze::FrAnalysis& a, bool color = false);

}  // namespace ncdx::report
