#pragma once
// Which model a run trains: from a local model directory's config.json (authoritative), the model
// family table matched on the path's basename ("Qwen2.5-7B-Instruct"), or --model-size.
#include <optional>
#include <string>

#include "core/result.h"
#include "knowledge/model_families.h"

namespace ncdx::analyze {

struct ModelGuess {
  std::optional<knowledge::ModelInfo> info;
  std::string from;  // "config.json at DIR", "model table (qwen2.5-7b) from the path", "--model-size 7B", ""
};

// Architecture numbers from a Hugging Face config.json (dense and MoE); the parameter count is
// estimated from them. Bad JSON is bad input.
core::Result<knowledge::ModelInfo> model_from_config_json(const std::string& text, const std::string& file);

// size_flag: "7B" (may be empty). model_path: actor_rollout_ref.model.path (may be empty).
core::Result<ModelGuess> identify_model(const std::string& size_flag, const std::string& model_path);

}  // namespace ncdx::analyze
