#pragma once
// A matrix as a terminal heatmap: one Unicode shade block per cell (light = low, full = high)
// over [min,max] of the present values, "·" for the diagonal/unknown, with row labels and a
// legend giving the unit and the value range each shade stands for.
#include <optional>
#include <string>
#include <vector>

namespace ncdx::report {

std::string term_heatmap(const std::vector<std::vector<std::optional<double>>>& m,
                         const std::vector<std::string>& row_labels, const std::vector<std::string>& col_labels,
                         const std::string& unit);

}  // namespace ncdx::report
