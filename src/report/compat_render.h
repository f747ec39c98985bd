#pragma once
// Renderers of `ncdx compat`: the component and check tables (text) and the JSON report
// (schema ncdx.compat/1).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "analyze/compat/compat.h"

namespace ncdx::report {

// width: the terminal's columns (core::output_columns; 0 = piped, every line whole).
std::string render_compat_text(const analyze::CompatReport& r, bool color, std::size_t width = 0);
// `context` is the caller's (report/context.h); `site_dirs` the Python site directories searched.
nlohmann::json compat_json(const analyze::CompatReport& r, nlohmann::json context, const std::vector<std::string>& site_dirs);

}  // namespace ncdx::report
