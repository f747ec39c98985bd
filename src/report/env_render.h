#pragma once
// Renderers of `ncdx env` (also used by `ncdx audit` and `ncdx template`): the lint table and its
// JSON report, env blocks as export / .env / Ray runtime_env lines, and their JSON forms.
#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "analyze/config/env_file.h"
#include "analyze/env/lint.h"
#include "analyze/env/recommend.h"
#include "core/result.h"

namespace ncdx::report {

// The lint table, then one note per row, then the tally; written as it goes (issue #12: an env
// file at the execve limit makes ~300 000 rows). The caller sanitises (report::SanitizedOut).
// width: the terminal's columns (core::output_columns; 0 = piped, every line whole).
void write_lint_text(std::ostream& out, const analyze::EnvRows& rows, bool color, std::size_t width = 0);
// format: "export" | "dotenv" | "ray"; header lines become comments.
core::Result<std::string> render_block(const std::vector<analyze::EnvRec>& recs, const std::string& format,
                                       const std::vector<std::string>& header);
nlohmann::json block_json(const std::vector<analyze::EnvRec>& recs);
// The JSON report of `env lint` (schema ncdx.env/1, mode lint): rows with secrets redacted, the
// summary, the shadowed settings; `input` and `context` are the caller's.
// Written as core::dump_json writes the whole report, without holding its rows as JSON.
void write_lint_json(std::ostream& out, const analyze::EnvRows& rows,
                     const std::vector<analyze::EnvSetting>& shadowed, nlohmann::json input, nlohmann::json context);

}  // namespace ncdx::report
