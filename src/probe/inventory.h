#pragma once
// The serialisable inventory of one machine (docs/DOCTOR.md "Sources and how
// they replay"): what `ncdx doctor` probed, what `--save` writes and `--from` replays.
// Unknown values are std::nullopt and serialise as JSON null, never 0.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::probe {

template <class T>
using opt = std::optional<T>;

// How a probe source fared: ok, loaded (a library opened; its calls not judged here), absent
// (library/file not there), symbol_missing, failed (present but the call failed), skipped (not
// attempted, with the reason). JSON and text use the lower-case names.
enum class ProbeState { skipped, ok, loaded, absent, symbol_missing, failed };
const char* to_string(ProbeState s);
std::optional<ProbeState> parse_probe_state(std::string_view s);

struct SourceState {
  ProbeState state = ProbeState::skipped;
  std::string detail;
};

// ---- OS ----------------------------------------------------------------------------------
struct Limit {
  opt<std::string> soft, hard;  // as printed in /proc/self/limits ("unlimited" or a number)
};

struct OsInfo {
  opt<std::string> hostname, kernel, driver_version, driver_banner;
  opt<std::string> shm_source;             // mount line the size came from
  opt<std::uint64_t> shm_size_bytes;       // from the mount table (tmpfs size=)
  opt<std::uint64_t> shm_free_bytes;       // statvfs, live only
  opt<std::uint64_t> mem_total_bytes;      // /proc/meminfo
  Limit memlock, nofile;
  opt<std::string> cmdline;
  opt<int> iommu_groups;                   // number of /sys/kernel/iommu_groups entries
  opt<bool> iommu_passthrough;             // iommu=pt on the cmdline
  std::vector<std::string> numa_nodes;     // "node0: 0-55"
  std::vector<std::string> governors;      // distinct scaling_governor values
  opt<int> cpus_with_governor;
  opt<std::string> container;              // "docker", "podman", "kubernetes", ... or null
  opt<std::string> cgroup_cpu_max;         // "200000 100000" (cgroup v2) / quota period (v1)
  opt<std::uint64_t> cgroup_memory_max;    // bytes; null = unlimited or unknown
  bool cgroup_memory_unlimited = false;
  std::vector<std::string> modules;        // loaded modules of interest
  bool modules_known = false;              // /proc/modules was readable
};

// ---- PCI ---------------------------------------------------------------------------------
struct PciDevice {
  std::string bdf;                 // "0000:18:00.0"
  std::vector<std::string> path;   // bridges from the root port down to the device (bdfs)
  std::string root;                // "pci0000:00"
  opt<std::string> vendor, device, klass, driver;
  opt<int> numa_node;
  opt<double> cur_speed_gts, max_speed_gts;
  opt<int> cur_width, max_width;
};

// ACS state of a bridge above a GPU (PCIe extended capability 0x000D): absent = no ACS capability.
enum class AcsState { unreadable, enabled, disabled, absent };
const char* to_string(AcsState s);

struct AcsBridge {
  std::string bdf;
  AcsState state = AcsState::unreadable;
  opt<int> ctrl;                  // ACS Control register
  std::vector<std::string> below; // GPU/NIC bdfs under this bridge
};

// ---- NVML ----------------------------------------------------------------------------------
struct NvLink {
  int link = 0;
  opt<bool> active;
  opt<int> version;               // nvmlNvlinkVersion_t code (5 = 3.1, 6 = 4.0)
  opt<std::string> remote_bus_id;
  opt<int> remote_type;           // 0 GPU, 1 IBMNPU, 2 SWITCH
  opt<std::uint64_t> replay, recovery, crc_flit, crc_data;
};

struct GpuProcess {
  std::uint32_t pid = 0;
  opt<std::uint64_t> used_bytes;
};

struct NvmlGpu {
  int index = 0;
  opt<std::string> name, uuid, bus_id;
  opt<int> arch, cc_major, cc_minor;
  opt<std::uint64_t> mem_total, mem_used;
  std::vector<GpuProcess> processes;
  opt<int> temp, temp_slowdown, temp_shutdown;
  opt<std::uint32_t> power_mw, power_limit_mw;
  opt<std::uint32_t> sm_clock, sm_clock_max;
  opt<std::uint64_t> clock_event_reasons;
  opt<bool> ecc_current, ecc_pending;
  opt<std::uint64_t> ecc_volatile_unc, ecc_aggregate_unc;
  opt<std::uint32_t> retired_sbe, retired_dbe;
  opt<bool> retired_pending;
  opt<std::uint32_t> remap_corr, remap_unc;
  opt<bool> remap_pending, remap_failure;
  opt<int> pcie_gen, pcie_max_gen, pcie_width, pcie_max_width;
  opt<std::uint32_t> pcie_replay;
  opt<bool> persistence;
  opt<int> compute_mode, mig_current, mig_pending;
  opt<int> nvlink_count;
  std::vector<NvLink> nvlinks;
  opt<std::string> cpu_affinity;  // cpulist "0-55,112-167"
  opt<int> numa_node;             // from sysfs of the PCI device (NVML's is the memory node)
  opt<int> fabric_state, fabric_status;
  // field -> "not_supported" | "symbol_missing" | "failed: <text> (<code>)". Absent = ok.
  std::map<std::string, std::string> errors;
};

struct NvmlInfo {
  SourceState source;
  opt<std::string> library, driver_version, nvml_version;
  opt<int> cuda_driver_version;
  opt<int> device_count;
  std::vector<NvmlGpu> gpus;
  // [i][j] nvmlGpuTopologyLevel_t (0 internal … 50 system); null = unknown / diagonal.
  std::vector<std::vector<opt<int>>> topology;
  // [i][j] nvmlGpuP2PStatus_t for P2P READ (0 = OK).
  std::vector<std::vector<opt<int>>> p2p;
};

// ---- CUDA ----------------------------------------------------------------------------------
struct CudaInfo {
  SourceState driver, runtime;
  opt<std::string> driver_library, runtime_library;
  opt<int> driver_version, runtime_version, device_count;
  opt<int> init_result;  // cuInit's CUresult (34 = stub library)
  std::vector<std::vector<opt<bool>>> peer_access;
};

// ---- Libraries and Python packages -----------------------------------------------------------
struct NcclLib {
  std::string path;            // as found (machine path)
  opt<std::string> real_path;  // symlink resolved
  opt<std::string> version;    // "2.28.9"
  std::string version_source;  // "ncclGetVersion", "version string", "file suffix", "unknown"
  std::string origin;          // "system", "cuda", "python", "torch", "env"
};

struct PyPackage {
  std::string name, version, site;  // site = site-packages dir
};

// ---- Network -----------------------------------------------------------------------------
struct NetIface {
  std::string name;
  opt<std::string> operstate;
  opt<int> speed_mbps, mtu, type;  // type: ARPHRD (1 ether, 32 infiniband, 772 loopback)
  opt<std::string> pci_bdf;
};

struct IbGid {
  int index = 0;
  std::string gid;
  opt<std::string> type;  // "IB/RoCE v1", "RoCE v2"
  opt<std::string> ndev;
};

struct IbPort {
  int port = 0;
  opt<std::string> state, phys_state, rate, link_layer;
  opt<double> rate_gbps;
  std::vector<IbGid> gids;
  std::map<std::string, std::uint64_t> counters;
  std::vector<std::string> unreadable;  // files that exist but could not be read
};

struct IbDevice {
  std::string name;
  opt<std::string> pci_bdf, fw_ver, hca_type;
  std::vector<IbPort> ports;
};

// ---- Kernel messages -------------------------------------------------------------------------
struct XidEvent {
  std::string pci;          // as printed ("0000:3b:00")
  int xid = 0;
  std::string text;         // the message, trimmed
  opt<double> time_s;       // seconds since boot when known
};

struct KernelLog {
  SourceState source;
  std::vector<XidEvent> xids;
  opt<int> lines;
};

struct Inventory {
  std::string schema = "ncdx.inventory/1";
  bool live = false;
  std::string origin;  // "live", "root:DIR", "bundle:DIR", "snapshot:FILE"
  OsInfo os;
  std::vector<PciDevice> pci_gpus;   // vendor 0x10de, display/3D class
  std::vector<PciDevice> pci_nics;   // network (0x02) and IB (0x0c06) class devices
  SourceState acs_source;
  std::vector<AcsBridge> acs;
  NvmlInfo nvml;
  CudaInfo cuda;
  SourceState libs_source;
  std::vector<NcclLib> nccl_libs;
  std::vector<PyPackage> python;
  std::vector<NetIface> net;
  std::vector<IbDevice> ib;
  KernelLog kmsg;
  std::map<std::string, std::string> env;  // relevant env, redacted
};

nlohmann::json to_json(const Inventory& inv);
nlohmann::json to_json(const NvmlInfo& n);
nlohmann::json to_json(const CudaInfo& c);
nlohmann::json nccl_libs_to_json(const std::vector<NcclLib>& libs);
// Bad shapes come back as bad_input naming `source` and what was wrong.
core::Result<Inventory> inventory_from_json(const nlohmann::json& j, const std::string& source);
core::Result<NvmlInfo> nvml_from_json(const nlohmann::json& j, const std::string& source);
core::Result<CudaInfo> cuda_from_json(const nlohmann::json& j, const std::string& source);
core::Result<std::vector<NcclLib>> nccl_libs_from_json(const nlohmann::json& j, const std::string& source);

}  // namespace ncdx::probe
