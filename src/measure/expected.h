#pragma once
// The expected-value model: what a healthy machine with this topology should measure. Every
// number comes from knowledge/data/gpu_models.yaml (datasheet rates, NCCL's own constants) and
// the machine's topology; each result says how it was derived (basis) so a report can show it.
//   copies (copy engine, cudaMemcpy*):  datasheet rates
//     H2D/D2H   PCIe lane rate x width x efficiency (yaml pcie.efficiency)
//     D2D       memory bandwidth / 2 (a device copy reads and writes every byte)
//     P2P NV#   # x per-link datasheet rate;  PIX/PXB/PHB/NODE: PCIe of the slower GPU; SYS: none
//   collectives (NCCL busbw):  NCCL's own planning constants (NVIDIA/nccl src/graph/topo.h)
//     NVLink    links x NCCL per-link rate for the GPU's sm (20.6 GB/s on sm90)
//     PCIe      width x NCCL gen factor / 80 (Gen4 x16 = 24 GB/s)
//     ring      bottleneck edge of the best ring through the GPUs (all rings tried for <= 9 GPUs)
//     network   NIC speed / 8 (400 Gb/s = 50 GB/s): a ring's busbw is bounded by the node's NIC
//               bandwidth (each node sends 2(n-1)/n of the data once per ring).
#include <optional>
#include <string>
#include <vector>

#include "knowledge/gpu_models.h"
#include "probe/topo_matrix.h"

namespace ncdx::measure {

struct Expectation {
  std::optional<double> gbps;  // null = no expectation (say why in basis)
  std::string basis;
};

// The model of a GPU by name, else by sm if the name is unknown; nullptr when nothing matches.
const knowledge::GpuModel* model_for(const knowledge::GpuModelTable& t, const probe::Gpu& gpu);

Expectation pcie_copy(const knowledge::GpuModelTable& t, std::optional<double> gts, std::optional<int> width);
Expectation host_copy(const knowledge::GpuModelTable& t, const probe::Gpu& gpu);   // H2D or D2H
Expectation device_copy(const knowledge::GpuModelTable& t, const probe::Gpu& gpu); // D2D
Expectation p2p_copy(const knowledge::GpuModelTable& t, const probe::TopoMatrix& m, std::size_t g1, std::size_t g2);

// NCCL-planned bandwidth of one GPU pair (collectives), and of the best ring over `gpus`
// (positions in m.gpus): the all-reduce busbw a healthy node reaches.
Expectation nccl_pair(const knowledge::GpuModelTable& t, const probe::TopoMatrix& m, std::size_t g1, std::size_t g2);
Expectation nccl_ring_busbw(const knowledge::GpuModelTable& t, const probe::TopoMatrix& m,
                            const std::vector<std::size_t>& gpus);
// Inter-node ring busbw bound: the NIC bandwidth available to one rank, in GB/s.
// node_nic_gbit = sum of the node's NIC port rates (Gb/s); ranks_sharing = ranks that share them.
Expectation network_busbw(double node_nic_gbit, int ranks_sharing = 1);

}  // namespace ncdx::measure
