#pragma once
// Rank, size and host of this process from the launchers clusters already use (docs/CLUSTER.md
// intro): OpenMPI, PMIx, Slurm, torchrun. Without any, the process is rank 0 of 1.
#include <map>
#include <optional>
#include <string>

namespace ncdx::cluster {

struct RankInfo {
  int rank = 0;
  int size = 1;
  std::optional<int> local_rank;
  std::string host;
  std::string source = "single";  // which launcher's variables were used
};

// env lookups go through a function so tests can pass a map instead of the process env.
RankInfo detect_rank(const std::map<std::string, std::string>* env = nullptr);

// "JOBID.STEPID" of the Slurm step this process is a task of (SLURM_JOB_ID, SLURM_STEP_ID as
// srun sets them), or "" outside srun.
std::string slurm_step(const std::map<std::string, std::string>* env = nullptr);
// The Slurm name of this rank's node (SLURMD_NODENAME, set by slurmd for every task); empty outside
// Slurm. Two machines cloned with one hostname still have two node names.
std::string slurm_node_name(const std::map<std::string, std::string>* env = nullptr);

}  // namespace ncdx::cluster
