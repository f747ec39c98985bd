// The one explicit list of doctor checks (docs/DEVELOPING.md "Where is what"), with
// the fact each rests on. `docs/CHECKS.md` is generated from this table (`ncdx doctor --list`).
#include "analyze/doctor/checks.h"

namespace ncdx::analyze {

namespace {
constexpr const char* kNcclTrouble = "NCCL user guide, Troubleshooting";
constexpr const char* kAbiNvml = "NVML nvmlDeviceGetEccMode (nvml.h)";

std::vector<CheckDef> register_doctor_checks() {
  return {
      // system
      {"os.driver", "system", "NVIDIA driver loaded for every GPU on PCI", "quick", "NVIDIA GPUs on PCI or NVML present",
       "nvml.h nvmlInit_v2 returns 9 without the kernel driver, 18 after an upgrade without reboot; ncdx reports a missing driver as a finding, not a crash", check_driver_loaded},
      {"os.shm_size", "system", "/dev/shm large enough for NCCL SHM and PyTorch workers", "quick", "always; fails with >= 2 GPUs (counted on PCI without a driver)",
       "NCCL troubleshooting: 'failed to extend /dev/shm' -> container shm size; NCCL SHM transport (NVIDIA/nccl src/transport/shm.cc)", check_shm_size},
      {"os.shm_free", "system", "free space in /dev/shm", "quick", "live machine (statvfs)", "stale nccl-*/torch_* segments fill /dev/shm (NCCL troubleshooting: 'unlink shared memory failed' -> systemd RemoveIPC)", check_shm_free},
      {"os.memlock", "system", "memlock unlimited where RDMA is present", "quick", "InfiniBand/RoCE devices present",
       "NCCL troubleshooting: 'Call to ibv_reg_mr failed' / 'ibv_create_qp failed' -> memlock limits", check_memlock},
      {"os.nofile", "system", "open-file limit", "quick", "always", "NCCL socket transport: up to 64 sockets per connection (MAX_SOCKETS, NVIDIA/nccl src/transport/net_socket.cc)", check_nofile},
      {"os.iommu", "system", "IOMMU off or in passthrough mode", "quick", "GPUs present", kNcclTrouble, check_iommu},
      {"os.acs", "system", "PCI ACS not redirecting P2P on bridges above GPUs/NICs", "quick", "GPUs on PCI; config space readable (root)",
       "NCCL troubleshooting 'PCI Access Control Services (ACS)'; leptonai/gpud pci component; ACS ext. capability 0x000D", check_acs},
      {"os.cpu_governor", "system", "CPU frequency governor is performance", "quick", "cpufreq present", "NCCL proxy threads drive network progress on the CPU (NVIDIA/nccl src/graph/tuning.cc latency terms)", check_cpu_governor},
      {"os.numa", "system", "NUMA layout and GPU NUMA affinity known", "quick", "always", "nvidia-smi topo -m 'NUMA Affinity'; nvml.h NumaNodeId vs sysfs numa_node", check_numa},
      {"os.cgroup_cpu", "system", "cgroup CPU quota leaves CPUs for every rank", "quick", "cgroup cpu.max present", "NCCL proxy thread per rank plus the training thread", check_cgroup_cpu},
      {"os.cgroup_memory", "system", "cgroup memory limit above /dev/shm size", "quick", "cgroup memory limit present", "tmpfs pages are charged to the memory cgroup (Linux memcg)", check_cgroup_memory},
      {"os.hostname", "system", "hostname set and not localhost", "quick", "always", "NCCL host identity = hostname+boot_id hash (nccl_env_vars.tsv NCCL_HOSTID); log prefixes host:pid (NVIDIA/nccl src/debug.cc)", check_hostname},
      // kernel
      {"kernel.xid", "kernel", "no NVIDIA XID errors since boot", "quick", "kernel messages readable (/dev/kmsg or bundle)", "NVIDIA XID catalog; leptonai/gpud error-xid component", check_xid},
      // gpu
      {"gpu.health", "gpu", "every GPU healthy: XID, ECC, retirement, remap and NVLink errors per GPU", "quick", "NVML usable or kernel messages readable", "NVIDIA XID catalog; nvml.h (ECC, remapped rows, NVLink counters); dcgmi diag per-GPU results", check_gpu_health},
      {"gpu.count", "gpu", "NVML sees every NVIDIA GPU on PCI", "quick", "NVML usable", "nvml.h nvmlDeviceGetCount_v2", check_gpu_count},
      {"gpu.driver_match", "gpu", "kernel module and NVML report the same driver", "quick", "NVML usable", "nvml.h NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)", check_driver_match},
      {"gpu.ecc_mode", "gpu", "ECC enabled, no pending change", "quick", "NVML usable, ECC-capable GPUs", kAbiNvml, check_ecc_mode},
      {"gpu.ecc_errors", "gpu", "no uncorrectable ECC errors", "quick", "NVML usable, ECC-capable GPUs", "nvml.h nvmlMemoryErrorType_t / nvmlEccCounterType_t", check_ecc_errors},
      {"gpu.retired_pages", "gpu", "no pending page retirement", "quick", "NVML usable, pre-Ampere GPUs", "nvml.h nvmlDeviceGetRetiredPagesPendingStatus", check_retired_pages},
      {"gpu.row_remap", "gpu", "no pending or failed row remapping", "quick", "NVML usable, Ampere and newer", "nvml.h nvmlDeviceGetRemappedRows; leptonai/gpud remapped-rows", check_row_remap},
      {"gpu.temperature", "gpu", "GPU temperature below slowdown", "quick", "NVML usable", "nvml.h nvmlTemperatureThresholds_t; leptonai/gpud temperature margin", check_temperature},
      {"gpu.throttle", "gpu", "no HW/thermal/power clock slowdown", "quick", "NVML usable", "nvml.h clocks-event reason bits", check_throttle},
      {"gpu.power", "gpu", "power draw below the enforced limit", "quick", "NVML usable", "nvml.h nvmlDeviceGetPowerUsage / EnforcedPowerLimit (mW)", check_power},
      {"gpu.persistence", "gpu", "persistence mode on", "quick", "NVML usable", "leptonai/gpud persistence-mode component", check_persistence},
      {"gpu.compute_mode", "gpu", "compute mode DEFAULT", "quick", "NVML usable", "nvml.h nvmlComputeMode_t", check_compute_mode},
      {"gpu.mig", "gpu", "MIG off, no pending change", "quick", "NVML usable, MIG-capable GPUs", "nvml.h nvmlDeviceGetMigMode", check_mig},
      {"gpu.memory_in_use", "gpu", "no leftover processes or memory on the GPUs", "quick", "NVML usable", "nvml.h ComputeRunningProcesses_v3 / MemoryInfo", check_memory_in_use},
      {"gpu.p2p", "gpu", "P2P read supported between GPU pairs", "full", "NVML usable, >= 2 GPUs, not --quick", "nvml.h nvmlGpuP2PStatus_t", check_p2p},
      {"gpu.p2p_path", "gpu", "PCIe-only GPU pairs within one PCIe switch", "quick", "NVML usable, >= 2 GPUs", "NCCL_P2P_LEVEL default PXB (NVIDIA/nccl src/graph/paths.cc, src/include/graph.h)", check_p2p_path},
      // pcie
      {"pcie.gpu_link", "pcie", "GPU PCIe link at full width (and speed when busy)", "quick", "NVML or sysfs link info", "nvml.h Curr/MaxPcieLink*; PCIe bw = width x speed / 80 GB/s (NVIDIA/nccl topology detection, src/graph/)", check_pcie_gpu_link},
      {"pcie.replay", "pcie", "GPU PCIe replay counter low", "quick", "NVML usable", "nvml.h nvmlDeviceGetPcieReplayCounter", check_pcie_replay},
      {"pcie.nic_link", "pcie", "NIC PCIe link at full speed and width", "quick", "NICs with PCIe link info", "sysfs /sys/class/infiniband/<dev>/device/current_link_speed, current_link_width", check_nic_link},
      // nvlink
      {"nvlink.state", "nvlink", "every NVLink link active", "quick", "NVML usable, NVLink GPUs", "nvml.h nvmlDeviceGetNvLinkState; leptonai/gpud nvlink", check_nvlink_state},
      {"nvlink.errors", "nvlink", "no NVLink CRC/replay/recovery errors", "full", "NVML usable, NVLink GPUs, not --quick", "nvml.h nvmlNvLinkErrorCounter_t", check_nvlink_errors},
      {"nvlink.symmetry", "nvlink", "same number of active NVLinks on every GPU", "quick", "NVML usable, NVLink GPUs", "NVLink link bw = per-link bw x link count (NVIDIA/nccl src/graph/topo.h)", check_nvlink_symmetry},
      {"nvlink.fabric", "nvlink", "NVSwitch fabric registration completed", "quick", "NVML usable, Hopper+ NVSwitch systems", "nvml.h nvmlGpuFabricInfo state/status", check_fabric},
      // cuda
      {"cuda.driver", "cuda", "CUDA driver library loads and initialises", "quick", "live machine", "cuda.h: stub libcuda -> CUDA_ERROR_STUB_LIBRARY 34 from cuInit", check_cuda_driver},
      {"cuda.runtime", "cuda", "CUDA runtime not newer than the driver", "quick", "live machine with libcudart on the loader path", "cuda.h cuDriverGetVersion / cuda_runtime_api.h cudaRuntimeGetVersion encoding", check_cuda_runtime},
      {"cuda.peer_access", "cuda", "CUDA peer access between device pairs", "full", "live machine, >= 2 GPUs, not --quick", "cuda_runtime_api.h cudaDeviceCanAccessPeer / cudaDeviceEnablePeerAccess", check_peer_access},
      // network
      {"net.socket_ifname", "network", "interface NCCL's socket transport would pick", "quick", "always",
       "NCCL_SOCKET_IFNAME: [^][=]prefix list; default ib*, then ^docker,lo,virbr (nccl_env_vars.tsv, src/misc/socket.cc)", check_socket_ifname},
      {"net.mtu", "network", "same MTU on the interfaces NCCL may use", "quick", "network interfaces present", "cross-node consistency: same MTU (docs/CLUSTER.md)", check_mtu},
      // infiniband
      {"ib.port_state", "infiniband", "IB/RoCE ports ACTIVE and LinkUp", "quick", "RDMA devices present", "Linux drivers/infiniband/core/sysfs.c ports/N/state, phys_state", check_ib_port_state},
      {"ib.port_rate", "infiniband", "IB/RoCE ports at the fabric rate", "quick", "RDMA devices present", "Linux drivers/infiniband/core/sysfs.c rate; NIC bw = speed/8000 GB/s (NVIDIA/nccl topology detection, src/graph/)", check_ib_rate},
      {"ib.counters", "infiniband", "no IB link error counters", "quick", "RDMA devices present", "Linux drivers/infiniband/core/sysfs.c PortCounters (saturating widths); leptonai/gpud infiniband", check_ib_counters},
      {"ib.roce_gid", "infiniband", "RoCE ports have a RoCE v2 GID", "quick", "RoCE ports present", "Linux drivers/infiniband/core/sysfs.c gid_attrs/types; NCCL_IB_ROCE_VERSION_NUM=2 (nccl_env_vars.tsv)", check_roce_gid},
      {"ib.peermem", "infiniband", "GPUDirect RDMA module loaded", "quick", "RDMA devices and GPUs present", "leptonai/gpud peermem component; NCCL INFO transport line 'via NET/IB/0/GDRDMA'", check_peermem},
      {"ib.gpu_nic_affinity", "infiniband", "each GPU has a NIC within PXB distance", "quick", "RDMA devices and GPUs present", "NCCL_NET_GDR_LEVEL default PXB (NVIDIA/nccl src/graph/paths.cc)", check_gpu_nic_affinity},
      // software
      {"sw.nccl_versions", "software", "one libnccl version on the machine", "quick", "libnccl files found", "ncclGetVersion encoding (NVIDIA/nccl src/nccl.h.in); NCCL 'Mismatched NCCL version detected' across ranks", check_nccl_versions},
      {"sw.torch_nccl", "software", "torch's NCCL matches the system NCCL", "quick", "torch installed", "PyTorch wheels depend on nvidia-nccl-cu* (its version is torch's NCCL)", check_torch_nccl},
      {"sw.python_stack", "software", "training-stack package versions", "quick", "Python environments found", "*.dist-info/METADATA Version", check_python_stack},
      // env: delegated to envlint's analyze/env/lint.h, except the node-aware transport check
      {"env.fake_vars", "env", "no invented or never-read NCCL variables (envlint)", "quick", "always", "no NVIDIA/nccl tag up to v2.30.7-1 reads NCCL_MAX_RINGS, NCCL_IB_MTU, NCCL_TIMEOUT (fakes); env_lint rules env.fake/never-read/unknown", check_env_fake},
      {"env.removed_vars", "env", "no removed NCCL variables (envlint)", "quick", "always", "NVIDIA/nccl release tags (removed in 2.4.2 / 2.5.6); env_lint rule env.removed", check_env_removed},
      {"env.torch_aliases", "env", "no deprecated PyTorch NCCL_* aliases (envlint)", "quick", "always", "pytorch/pytorch torch/csrc/distributed/c10d/Utils.hpp getCvar* (TORCH_ prefix since PyTorch 2.2, PR #114077); env_lint rule env.pytorch-alias", check_env_torch_aliases},
      {"env.disable_flags", "env", "no NCCL transport disabled", "quick", "always", "nccl_env_vars.tsv NCCL_P2P_DISABLE / NCCL_IB_DISABLE / NCCL_SHM_DISABLE", check_env_disable},
      {"env.values", "env", "NCCL/PyTorch variable values valid for this node (envlint)", "quick", "always", "analyze/env/lint.h rules (nccl_env_vars.tsv, torch_env_vars.yaml)", check_env_values},
  };
}
}  // namespace

const std::vector<CheckDef>& doctor_checks() {
  static const std::vector<CheckDef> checks = register_doctor_checks();
  return checks;
}

std::vector<CheckOutcome> run_doctor_checks(const probe::Inventory& inv) {
  std::vector<CheckOutcome> out;
  for (const auto& c : doctor_checks()) {
    CheckResult r;
    try {
      r = c.run(inv);
    } catch (const std::exception& e) {
      // A check bug must not take the report down; it shows up as a SKIP with the reason.
      r = skip(std::string("internal error in check: ") + e.what());
    }
    if (r.status == core::Outcome::skip && r.evidence.empty()) r.evidence = "no data for this check in the inventory";
    out.push_back({&c, std::move(r)});
  }
  return out;
}

}  // namespace ncdx::analyze
