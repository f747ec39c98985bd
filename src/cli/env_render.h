#pragma once
// Renderers shared by `ncdx env` subcommands: the lint table, env blocks as export / .env /
// Ray runtime_env lines, and their JSON forms.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "analyze/env_file.h"
#include "analyze/env_lint.h"
#include "analyze/env_recommend.h"
#include "core/result.h"

namespace ncdx::cli {

std::string render_lint_text(const std::vector<analyze::EnvRow>& rows, bool color);
// format: "export" | "dotenv" | "ray"; header lines become comments.
core::Result<std::string> render_block(const std::vector<analyze::EnvRec>& recs, const std::string& format,
                                       const std::vector<std::string>& header);
nlohmann::json block_json(const std::vector<analyze::EnvRec>& recs);
// Parses "--nccl-version 2.21.5"; empty string -> nullopt; garbage -> usage error.
core::Result<std::optional<core::Version>> version_flag(const std::string& flag, const std::string& value);
int exit_for_status(const std::string& status);

}  // namespace ncdx::cli
