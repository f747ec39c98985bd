#include "core/json.h"

namespace ncdx::core {

std::string dump_json(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<nlohmann::json> parse_json(std::string_view text, std::string_view source_name) {
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return Status::bad_input(std::string(source_name) + ": byte " + std::to_string(e.byte) +
                             ": invalid JSON (" + e.what() + ")");
  }
}

}  // namespace ncdx::core
