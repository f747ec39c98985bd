#pragma once
// Access to the data files compiled in from src/knowledge/data/ (see cmake/embed.cmake).
#include <optional>
#include <span>
#include <string_view>

namespace ncdx::knowledge {

struct EmbeddedFile {
  std::string_view name;  // path relative to data/, e.g. "signatures.yaml"
  std::string_view content;
};

std::span<const EmbeddedFile> embedded_files();
std::optional<std::string_view> embedded(std::string_view name);

}  // namespace ncdx::knowledge
