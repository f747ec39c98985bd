#include "knowledge/embedded.h"

namespace ncdx::knowledge {

std::optional<std::string_view> embedded(std::string_view name) {
  for (const auto& f : embedded_files())
    if (f.name == name) return f.content;
  return std::nullopt;
}

}  // namespace ncdx::knowledge
