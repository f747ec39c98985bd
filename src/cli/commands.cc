#include "cli/command.h"

#include <array>

namespace ncdx::cli {

// One line per command; keep alphabetical.
CLI::App* add_docs(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_topo(CLI::App&, const GlobalOptions&, int&);

std::span<const CommandDef> commands() {
  static const std::array<CommandDef, 2> list = {{
      {"docs", "print the knowledge base (signatures, env vars, checks) as Markdown", add_docs},
      {"topo", "show GPU/NIC/CPU topology; pick the best GPU subset and CPU/NIC binding", add_topo},
  }};
  return list;
}

}  // namespace ncdx::cli
