#include "cli/command.h"

#include <array>

namespace ncdx::cli {

// One line per command; keep alphabetical.
CLI::App* add_docs(CLI::App&, const GlobalOptions&, int&);

std::span<const CommandDef> commands() {
  static const std::array<CommandDef, 1> list = {{
      {"docs", "print the knowledge base (signatures, env vars, checks) as Markdown", add_docs},
  }};
  return list;
}

}  // namespace ncdx::cli
