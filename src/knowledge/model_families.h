#pragma once
// Model architecture table (data/model_families.yaml): size, layers, heads, KV heads, hidden size
// and vocabulary of popular families, matched against a model path's basename.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::knowledge {

struct ModelInfo {
  std::string id, family, source;          // source: config.json URL, or the local file read
  std::optional<double> params_b;          // total parameters, billions
  std::optional<double> active_b;          // MoE: activated per token
  std::optional<int> layers, heads, kv_heads, hidden, vocab, experts;
};

const std::vector<ModelInfo>& model_table();  // empty if the embedded file is broken (tested)
core::Status model_table_status();
// First table entry whose pattern matches the basename of `path` (case-insensitive).
std::optional<ModelInfo> match_model(std::string_view path);
// "7B", "1.5b", "235B-A22B", "8x7B" -> billions of (total) parameters; nullopt if no size token.
std::optional<double> parse_size_token(std::string_view text);

}  // namespace ncdx::knowledge
