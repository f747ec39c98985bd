#pragma once
// Findings read off a topology matrix alone (no measurement):
//   topo-nvlink-missing     a GPU without any NVLink on a node whose other GPUs are NVLinked
//                           (failed NVLink/NVSwitch port or fabric manager; class p2p-topology, error)
//   topo-nvlink-degraded    on a node where every GPU pair is NVLinked, pairs with fewer links
//                           than the others (links down; warn)
//   topo-p2p-beyond-pxb     GPU pairs whose path is PHB/NODE/SYS: NCCL's default NCCL_P2P_LEVEL
//                           is PXB, so those pairs talk through host shared memory (info)
//   topo-gdr-beyond-pxb     GPUs whose nearest NIC is beyond PXB: GPUDirect RDMA is off by
//                           default (NCCL_NET_GDR_LEVEL defaults to PXB; info)
// Defaults from NCCL v2.21.5-1 src/graph/paths.cc: P2P level :279-298 (SYS, lowered to PXB on
// ARM, Intel and Zhaoxin CPUs), NET_GDR_LEVEL :401 (PXB).
#include <vector>

#include "core/finding.h"
#include "probe/topo_matrix.h"

namespace ncdx::analyze {

std::vector<core::Finding> topo_findings(const probe::TopoMatrix& m);

}  // namespace ncdx::analyze
