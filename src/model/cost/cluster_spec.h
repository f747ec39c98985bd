#pragma once
// What the cost model needs to know about a cluster: the shape (nodes x GPUs), the GPU
// generation, the intra-node fabric and the network. Built from `--spec` text (spec_parse.h),
// a doctor snapshot, or by hand (other commands: bench, tune).
#include <optional>
#include <string>

namespace ncdx::model::cost {

enum class NicKind { IB, RoCE, EFA, Socket, Unknown };
enum class CpuVendor { Intel, Amd, Other };
// Where each GPU's NIC sits, as `nvidia-smi topo -m` shows the GPU-NIC cell: behind the GPU's
// PCIe switch (PIX/PXB, HGX/DGX boards), behind the same CPU's root complex (PHB), or on the
// other socket (SYS). NCCL routes SYS traffic over the inter-socket link and, with its default
// NCCL_NET_GDR_LEVEL=PXB, uses GPUDirect RDMA only up to PXB.
enum class NicPath { Pix, Pxb, Phb, Sys };

struct ClusterSpec {
  int nodes = 1;
  int gpus_per_node = 1;            // ranks per node (one rank per GPU)
  std::string gpu;                  // as given ("H100"); informational
  int sm = 90;                      // minimum compute capability x10 (H100 = 90)
  // Intra-node fabric.
  int nvlink_links = 0;             // NVLinks per GPU (NV18 -> 18); 0 = PCIe only
  bool nvswitch = false;            // GPUs reach each other through NVSwitch (HGX/DGX)
  double nvlink_gbps_per_link = 0;  // NCCL's usable per-link rate (GB/s); 0 = NCCL's value for sm
  double pcie_gbps = 24;            // NCCL's PCIe bw per GPU link (Gen4 x16 = 24, Gen5 x16 = 48)
  bool pcie_p2p = true;             // GPU peer access over PCIe (false: through host memory, SHM)
  // Network (nodes > 1).
  int nics_per_node = 0;
  double nic_gbit = 0;              // line rate of one NIC port, Gb/s
  NicKind nic_kind = NicKind::Unknown;
  bool gdr = true;                  // GPUDirect RDMA usable (false: staged through host memory)
  NicPath nic_path = NicPath::Pxb;  // GPU -> NIC path type
  CpuVendor cpu = CpuVendor::Intel;
  bool collnet = false;             // SHARP/CollNet plugin loaded and NCCL_COLLNET_ENABLE=1
  std::optional<bool> nvls;         // NVLink SHARP; unset = sm >= 90 with NVSwitch

  int nranks() const { return nodes * gpus_per_node; }
};

}  // namespace ncdx::model::cost
