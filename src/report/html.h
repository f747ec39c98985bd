#pragma once
// Building blocks for the self-contained HTML report: one file, inline CSS and SVG, no external
// assets, all untrusted text escaped (docs/OUTPUT.md "Report directory").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::report {

std::string html_escape(std::string_view s);
// A complete page around already-escaped body HTML.
std::string html_page(std::string_view title, std::string_view body_html);
// An SVG heatmap of a matrix (rows × cols) with labels; nullopt cells are drawn grey "N/A".
// Colour runs from low (light) to high (dark) over [min,max] of the present values.
std::string svg_heatmap(const std::vector<std::vector<std::optional<double>>>& m,
                        const std::vector<std::string>& row_labels,
                        const std::vector<std::string>& col_labels, std::string_view unit);

}  // namespace ncdx::report
