#pragma once
// Renderers of `ncdx model`: the prediction table (text), the --explain cost tables, what-if
// comparisons, judgements of nccl-tests results, and the ncdx.model/1 JSON
// (docs/schema/model.schema.json). They compute nothing.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "analyze/judge/judge.h"
#include "model/cost/sweep.h"
#include "model/cost/what_if.h"

namespace ncdx::report {

std::string size_text(std::uint64_t bytes);   // "8 B", "64 KB", "128 MB", "4 GB"

std::string render_model_text(const model::cost::SweepResult& r, bool explain, bool color);
std::string render_what_if_text(const std::vector<model::cost::WhatIf>& w);
std::string render_judge_text(const std::vector<analyze::judge::Judgement>& j, const std::string& file, bool color);

// The ncdx.model/1 body (without schema/context): any of the parts may be empty.
nlohmann::json model_json(const model::cost::SweepResult* sweep, bool explain,
                          const std::vector<model::cost::WhatIf>& what_ifs,
                          const std::vector<analyze::judge::Judgement>& judgements, const std::string& judge_file);

}  // namespace ncdx::report
