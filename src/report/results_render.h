// `ncdx report`: saved results of any ncdx command (analyze/results/load.h) as one text report or
// one self-contained HTML page — a section per input, failures first, SKIPs folded, matrices as
// heatmaps with their unit and an absolute scale, all input text escaped.
#pragma once

#include <string>
#include <vector>

#include "analyze/results/load.h"

namespace ncdx::report {

// all=false folds SKIP rows into a count (as doctor does); color only on a TTY.
std::string render_results_text(const std::vector<analyze::ResultDoc>& docs, bool all, bool color);
std::string render_results_html(const std::vector<analyze::ResultDoc>& docs);

}  // namespace ncdx::report
