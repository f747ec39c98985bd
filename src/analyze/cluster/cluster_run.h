#pragma once
// `ncdx doctor --cluster` as data (issue #14): every rank probes its node, rank 0 gathers the
// snapshots over the Comm (MPI under mpirun/srun), runs the single-node checks per node, the
// cross-node consistency rules, the TCP network matrix and the isolation of bad nodes/links.
#include <string>
#include <vector>

#include "analyze/cluster/confirm.h"
#include "analyze/cluster/consistency.h"
#include "analyze/cluster/isolation.h"
#include "analyze/cluster/nccl_check.h"
#include "analyze/doctor/check.h"
#include "core/finding.h"
#include "measure/network/net_matrix.h"
#include "probe/inventory.h"

namespace ncdx::cluster {
class Comm;
}

namespace ncdx::analyze {

struct ClusterOptions {
  bool network = true;  // run the matrix (off: --no-network)
  measure::NetOptions net;
  IsolationOptions isolation;
  ConfirmOptions confirm;  // the suspects re-measured alone after the matrix (confirm.h)
  ClusterNcclOptions nccl; // --nccl: the all-reduce over every GPU after the matrix (nccl_check.h)
};

struct ClusterNode {
  NodeSnapshot snap;
  std::vector<int> ranks;                  // every rank on this node
  std::vector<CheckOutcome> checks;        // the single-node doctor on its snapshot
};

struct ClusterRun {
  int rank = 0, size = 1;
  std::string launcher;                    // the Comm: "mpi" (or "single")
  // Whose environment rank 0 got (cluster::detect_rank): "openmpi" (mpirun), "slurm" (srun),
  // "pmix", "torchrun" or "single"; with the Slurm job and step when srun started it.
  std::string launched_by;
  std::string slurm_step;                  // "JOBID.STEPID" under srun, else empty
  std::vector<ClusterNode> nodes;          // rank 0 only
  std::vector<ConsistencyResult> consistency;
  bool network_ran = false;
  std::string network_skip;                // why not, when it did not run
  measure::NetMatrix network;
  // The confirmation pass: which pairs were re-measured alone, and their cells (only those pairs
  // are filled); empty when nothing was suspect.
  std::vector<ConfirmPair> confirm_plan;
  measure::NetMatrix confirm;
  std::vector<NetOutlier> outliers;
  ClusterNccl nccl;                        // --nccl (requested = false without it)
  std::vector<core::Finding> findings;     // consistency deviations, network outliers, NCCL
  int exit_code = 0;                       // the same on every rank (broadcast)
};

// Collective: every rank of `comm` calls it with its own node's inventory.
ClusterRun run_cluster_doctor(cluster::Comm& comm, probe::Inventory mine, const ClusterOptions& opt);

// The analysis on rank 0's data alone (also what tests and saved reports use).
void analyze_cluster(ClusterRun& run, const ClusterOptions& opt);

// The interface NCCL's socket transport would pick on this node, with an IPv4 address.
struct PickedIface {
  std::string name, addr, rule;
};
PickedIface pick_nccl_iface(const probe::Inventory& inv);

}  // namespace ncdx::analyze
