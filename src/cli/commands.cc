#include "cli/command.h"

#include <array>

namespace ncdx::cli {

// One line per command; keep alphabetical.
CLI::App* add_audit(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_docs(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_env(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_template(CLI::App&, const GlobalOptions&, int&);

std::span<const CommandDef> commands() {
  static const std::array<CommandDef, 4> list = {{
      {"audit", "audit a verl config/script + env (table: value, recommended, risk, status, why)", add_audit},
      {"docs", "print the knowledge base (signatures, env vars, checks) as Markdown", add_docs},
      {"env", "lint NCCL/PyTorch env vars; emit debug and recommended env blocks", add_env},
      {"template", "print a verl run script (env + overrides) for a model size and cluster", add_template},
  }};
  return list;
}

}  // namespace ncdx::cli
