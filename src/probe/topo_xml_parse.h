#pragma once
// NCCL topology XML (the NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE format) -> TopoMatrix.
//   <system><cpu numaid= affinity=><pci busid= class= link_speed= link_width=>
//     <pci ...><gpu dev= sm= rank= gdr=><nvlink target= count= tclass=/></gpu></pci>
//     <nic><net name= dev= speed= port= gdr=/></nic></pci></cpu></system>
// GPU<->GPU and GPU<->NIC codes are computed from the PCI tree the way NCCL's path search ranks
// them: PIX when the two devices meet below one PCIe switch with no other bridge on the way, PXB
// when more bridges are crossed, NODE when the path crosses the CPU of one NUMA node (NCCL calls
// this PATH_PHB: it does not distinguish host bridges), SYS across CPUs. NVLinks come from
// <nvlink> elements (to a GPU directly, or through NVSwitches: tclass 0x068000). Files that do
// not describe GPUs (partial vendor files NCCL merges with the detected topology, or a
// NCCL_GRAPH_FILE) are bad input with a message that says so.
#include <string_view>

#include "core/result.h"
#include "probe/topo_matrix.h"

namespace ncdx::probe {

core::Result<TopoMatrix> parse_nccl_topo_xml(std::string_view text, std::string_view source_name);

}  // namespace ncdx::probe
