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

}  // namespace ncdx::knowledge
