#include "cli/command.h"

namespace ncdx::cli {

// One line per command; keep alphabetical.
CLI::App* add_audit(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_compat(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_docs(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_doctor(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_env(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_gather(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_topo(CLI::App&, const GlobalOptions&, int&);
CLI::App* add_triage(CLI::App&, const GlobalOptions&, int&);

std::span<const CommandDef> commands() {
  static const CommandDef list[] = {
      {"audit", "audit a verl config/script + env (table: value, recommended, risk, status, why)", add_audit},
      {"compat", "check driver/CUDA/NCCL/PyTorch/verl/vLLM/SGLang versions against each other", add_compat},
      {"docs", "print the knowledge base (signatures, env vars, checks) as Markdown", add_docs},
      {"doctor", "preflight a node (GPUs, links, network, OS limits, NCCL libraries)", add_doctor},
      {"env", "lint NCCL/PyTorch env vars; emit debug and recommended env blocks", add_env},
      {"gather", "collect a support bundle that doctor --from replays", add_gather},
      {"topo", "show GPU/NIC/CPU topology; pick the best GPU subset and CPU/NIC binding", add_topo},
      {"triage", "name the failure of a job from the logs of all ranks: class, culprit, cause, fix", add_triage},
  };
  return list;
}

}  // namespace ncdx::cli
