#include "cli/command.h"


namespace ncdx::cli {

// One line per command; keep alphabetical.
CLI::App* add_docs(CLI::App&, const GlobalOptions&, int&);

std::span<const CommandDef> commands() {
  static const CommandDef list[] = {
      {"docs", "print the knowledge base (signatures, env vars, checks) as Markdown", add_docs},
  };
  return list;
}

}  // namespace ncdx::cli
