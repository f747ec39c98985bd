#include "cli/command.h"

#include <array>

namespace ncdx::cli {

// One line per command; keep alphabetical.
CLI::App* add_docs(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_doctor(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_gather(CLI::App&, const GlobalOptions&, int&);

std::span<const CommandDef> commands() {
  static const std::array<CommandDef, 3> list = {{
      {"docs", "print the knowledge base (signatures, env vars, checks) as Markdown", add_docs},
      {"doctor", "preflight a node (GPUs, links, network, OS limits, NCCL libraries)", add_doctor},
      {"gather", "collect a support bundle that doctor --from replays", add_gather},
  }};
  return list;
}

}  // namespace ncdx::cli
