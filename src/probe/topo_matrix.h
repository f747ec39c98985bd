#pragma once
// The topology model of one node: GPUs, NICs and the pairwise link matrix that
// `nvidia-smi topo -m` prints. It is filled from three places that must agree:
//   - NVML on a live machine (doctor's probe: nvmlDeviceGetTopologyCommonAncestor for the PCIe
//     level, nvmlDeviceGetNvLinkState/RemotePciInfo for NV#),
//   - `nvidia-smi topo -m` text pasted by a user (probe/topo_smi_parse.h),
//   - an NCCL topology XML (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE, probe/topo_xml_parse.h).
// Link codes are NVIDIA's (nvidia-smi legend): X, NV#, PIX, PXB, PHB, NODE, SYS and the legacy
// SOC (= SYS on old drivers). NCCL's path types (NVIDIA/nccl src/include/graph.h PATH_*) rank them the same
// way, except that NCCL has no NODE: a path through the CPU inside one NUMA node is PATH_PHB.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::probe {

// Declared best first; the numeric order IS the quality order used by rank().
enum class LinkType {
  self,     // X: the device itself
  nvlink,   // NV#: a bonded set of # NVLinks (direct or through NVSwitch)
  pix,      // at most one PCIe bridge (same PCIe switch)
  pxb,      // several PCIe bridges, no host bridge
  phb,      // through a PCIe host bridge (the CPU root complex)
  node,     // between host bridges inside one NUMA node
  sys,      // across the SMP interconnect between NUMA nodes (QPI/UPI/xGMI)
  soc,      // legacy name of SYS printed by old drivers
  unknown,  // not known (abbreviated matrix, missing data): JSON null
};

struct Link {
  LinkType type = LinkType::unknown;
  int nvlinks = 0;  // number of NVLinks for LinkType::nvlink (NV12 -> 12), else 0

  bool is_nvlink() const { return type == LinkType::nvlink; }
  bool known() const { return type != LinkType::unknown; }
  friend bool operator==(const Link&, const Link&) = default;
};

// "X", "NV12", "PIX", ... ; unknown -> "?".
std::string to_string(const Link& l);
// Parses one cell of the matrix ("NV18", " X ", "SOC"); nullopt for anything else.
std::optional<Link> parse_link_code(std::string_view cell);
// Path quality rank, lower is better: X=0, NV=1, PIX=2, PXB=3, PHB=4, NODE=5, SYS/SOC=6,
// unknown=7. Same order as NCCL's PATH_LOC < PATH_NVL < PATH_PIX < PATH_PXB < PATH_PHB < PATH_SYS.
int rank(const Link& l);
// The NCCL path-type name of a link ("NVL", "PIX", "PXB", "PHB" (also for NODE), "SYS"), for
// comparing with NCCL_P2P_LEVEL / NCCL_NET_GDR_LEVEL; "LOC" for self, "" when unknown.
std::string nccl_path_name(const Link& l);
// NVML's nvmlGpuTopologyLevel_t (0 internal, 10 single, 20 multiple, 30 hostbridge, 40 node,
// 50 system) as a link; doctor uses this when filling the matrix from NVML.
Link link_from_nvml_level(int nvml_level);

struct Gpu {
  int index = 0;                     // nvidia-smi / NVML index (GPU<index>)
  std::string name;                  // "NVIDIA H100 80GB HBM3"; empty when unknown
  std::string bus_id;                // "0000:4f:00.0" (lower case, domain included); empty if unknown
  std::optional<int> numa_node;      // NUMA node of the GPU's PCIe root
  std::string cpu_affinity;          // Linux cpulist ("0-23,48-71"); empty when unknown
  std::optional<int> sm;             // compute capability x10 (90 = sm_90); from XML or NVML
  std::optional<double> pcie_gts;    // PCIe link speed in GT/s (32 = Gen5)
  std::optional<int> pcie_width;     // PCIe link width (16)
};

struct Nic {
  std::string label;                 // "NIC0" as in the matrix header
  std::string name;                  // "mlx5_0" (from the NIC legend or XML <net name>); may be empty
  std::string bus_id;                // PCI bus id when known
  std::optional<double> port_gbps;   // port rate in Gb/s (400); nullopt when unknown
  std::optional<int> numa_node;
};

// Devices are numbered GPUs first, then NICs: device(i) for i < gpus.size() is GPU i, else NIC
// i - gpus.size(). links is row-major over (gpus+nics)^2.
struct TopoMatrix {
  std::vector<Gpu> gpus;
  std::vector<Nic> nics;
  std::vector<Link> links;
  std::string source;               // "nvidia-smi", "nccl-xml", "nvml", "snapshot"
  std::vector<std::string> notes;   // what was missing or inferred ("NIC columns cut (\"...\")")
  // false when the source cannot show NVLinks (an NCCL XML without <nvlink>): GPU-GPU codes are
  // then PCIe paths only, and checks about NVLink or P2P must not conclude anything.
  bool nvlink_known = true;

  std::size_t devices() const { return gpus.size() + nics.size(); }
  // Resizes links to devices()^2, all unknown, with X on the diagonal.
  void reset_links();
  Link& at(std::size_t a, std::size_t b) { return links[a * devices() + b]; }
  const Link& at(std::size_t a, std::size_t b) const { return links[a * devices() + b]; }
  const Link& gpu_gpu(std::size_t g1, std::size_t g2) const { return at(g1, g2); }
  const Link& gpu_nic(std::size_t g, std::size_t n) const { return at(g, gpus.size() + n); }
  const Link& nic_nic(std::size_t n1, std::size_t n2) const {
    return at(gpus.size() + n1, gpus.size() + n2);
  }
  std::string label(std::size_t device) const;  // "GPU3" / "NIC1"
  // NVLinks between two GPUs (0 when not NVLink or unknown).
  int nvlink_count(std::size_t g1, std::size_t g2) const { return gpu_gpu(g1, g2).nvlinks; }
  bool any_nvlink() const;
};

// cpulist helpers: "0-3,8" <-> {0,1,2,3,8}. parse_cpulist returns nullopt on malformed input.
std::optional<std::vector<int>> parse_cpulist(std::string_view s);
std::string format_cpulist(const std::vector<int>& cpus);
// Linux cpumask ("000000ff,ffff0000,00ffffff", as in NCCL XML `affinity=`) -> cpulist.
std::optional<std::string> cpumask_to_cpulist(std::string_view mask);

}  // namespace ncdx::probe
