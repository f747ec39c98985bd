#pragma once
// Loads an embedded YAML file; a broken knowledge file is an internal error (it ships with us),
// reported with its name and line.
#include <yaml-cpp/yaml.h>

#include <string_view>

#include "core/result.h"

namespace ncdx::knowledge {

core::Result<YAML::Node> load_embedded_yaml(std::string_view name);

}  // namespace ncdx::knowledge
