#pragma once
// Choosing the best K-GPU subset of a node and the CPU/NIC binding of each chosen GPU
// (`ncdx topo --pick K`).
//
// Score of a subset, compared in this order (each later key only breaks ties of the earlier):
//   1. worst GPU<->GPU link inside the subset, by path rank (NV < PIX < PXB < PHB < NODE < SYS,
//      unknown last): a collective runs at the pace of its slowest hop, so one SYS pair in a
//      ring costs more than any amount of NVLink elsewhere;
//   2. most NVLinks summed over the pairs (NV18 beats NV12; pairs without NVLink add 0);
//   3. fewest NUMA nodes spanned (CPU threads and host buffers stay on one socket);
//   4. smallest sum over the GPUs of the path rank to their nearest NIC (GPUDirect RDMA needs
//      PIX/PXB by default: NCCL_NET_GDR_LEVEL defaults to PXB: NCCL src/graph/paths.cc:401 at v2.21.5-1);
//   5. lowest GPU indices (deterministic).
// When the source shows no NVLinks (nvlink_known false) keys 1-2 still rank PCIe paths, and
// the pick says that NVLinks were not considered.
// All C(n,K) subsets are compared when there are at most 2,000,000 of them; beyond that a greedy
// search is used and the result says so.
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "probe/topo_matrix.h"

namespace ncdx::analyze {

struct GpuBinding {
  int gpu = 0;                      // GPU index
  std::string cpus;                 // cpulist for taskset; empty when unknown
  std::optional<int> numa_node;     // for numactl; nullopt when unknown
  std::vector<std::size_t> nics;    // nearest NICs (positions in TopoMatrix::nics), ties included
  probe::Link nic_link;             // path to them (unknown when there is no NIC)
};

struct TopoScore {
  int worst_rank = 0;               // probe::rank() of the worst pair (0 when K == 1)
  probe::Link worst;                // that pair's link (self when K == 1)
  int nvlinks = 0;
  int numa_nodes = 0;               // distinct known NUMA nodes
  int nic_rank_sum = 0;
};

struct TopoPick {
  std::vector<std::size_t> gpus;    // positions in TopoMatrix::gpus, ascending
  TopoScore score;
  std::vector<GpuBinding> bindings;
  std::vector<std::string> hca;     // names of the nearest NICs within PXB (for NCCL_IB_HCA)
  bool hca_applies = false;         // the NICs are IB verbs devices (mlx*, ...), not EFA/eth
  std::vector<std::string> warnings;
  bool exhaustive = true;
  std::size_t candidates = 0;       // subsets compared
};

// k must be 1..gpus.size(); otherwise usage error.
core::Result<TopoPick> pick_gpus(const probe::TopoMatrix& m, int k);
// Score of an explicit subset (positions in m.gpus); exposed for tests and reports.
TopoScore score_subset(const probe::TopoMatrix& m, const std::vector<std::size_t>& gpus);
// true when a is strictly better than b under the documented order (keys 1-4).
bool better(const TopoScore& a, const TopoScore& b);

}  // namespace ncdx::analyze
