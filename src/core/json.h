#pragma once
// JSON helpers over nlohmann::json: null for unknown (never 0), deterministic dumps, bounded
// parsing of untrusted files.
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/shared_opt.h"

namespace ncdx::core {

template <class T>
nlohmann::json opt_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
template <class T>
nlohmann::json opt_json(const SharedOpt<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// Pretty (indent 2) dump with invalid UTF-8 replaced, ending in a newline.
std::string dump_json(const nlohmann::json& j, int indent = 2);
// The bytes of dump_json(top) where the top-level member `key` (an empty array in `top`) holds the
// elements `next` sets one per call until it returns false, written without ever holding that
// array or the whole text (a report of ~300 000 rows as one nlohmann tree took 1.5 GB, issue #12).
void write_json_streaming(std::ostream& out, const nlohmann::json& top, const std::string& key,
                          const std::function<bool(nlohmann::json&)>& next);
// Parses untrusted JSON; errors come back as bad_input with the byte offset.
Result<nlohmann::json> parse_json(std::string_view text, std::string_view source_name);

}  // namespace ncdx::core
