#include "knowledge/yaml_load.h"

#include <string>

#include "knowledge/embedded.h"

namespace ncdx::knowledge {

core::Result<YAML::Node> load_embedded_yaml(std::string_view name) {
  auto text = embedded(name);
  if (!text) return core::Status::internal("knowledge file not embedded: " + std::string(name));
  try {
    return YAML::Load(std::string(*text));
  } catch (const YAML::Exception& e) {
    return core::Status::internal("knowledge/" + std::string(name) + ":" + std::to_string(e.mark.line + 1) +
                                  ": " + e.msg);
  }
}

core::Result<YAML::Node> parse_yaml_list(std::string_view text, std::string_view source, std::string_view rows) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    return core::Status::bad_input(std::string(source) + ":" + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg);
  }
  if (!root.IsSequence()) return core::Status::bad_input(std::string(source) + ":1: expected a list of " + std::string(rows));
  return root;
}

}  // namespace ncdx::knowledge
