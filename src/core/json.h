#pragma once
// JSON helpers over nlohmann::json: null for unknown (never 0), deterministic dumps, bounded
// parsing of untrusted files.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace ncdx::core {

template <class T>
nlohmann::json opt_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// Pretty (indent 2) dump with invalid UTF-8 replaced, ending in a newline.
std::string dump_json(const nlohmann::json& j, int indent = 2);
// Parses untrusted JSON; errors come back as bad_input with the byte offset.
Result<nlohmann::json> parse_json(std::string_view text, std::string_view source_name);

}  // namespace ncdx::core
