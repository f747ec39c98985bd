#pragma once
// Declarations of the doctor check functions (internal to analyze; registered in
// doctor/registry.cc). Each is a pure function of the Inventory.
#include "analyze/doctor/check.h"

namespace ncdx::analyze {

CheckResult check_gpu_count(const probe::Inventory& inv);
CheckResult check_driver_match(const probe::Inventory& inv);
CheckResult check_ecc_mode(const probe::Inventory& inv);
CheckResult check_ecc_errors(const probe::Inventory& inv);
CheckResult check_retired_pages(const probe::Inventory& inv);
CheckResult check_row_remap(const probe::Inventory& inv);
CheckResult check_temperature(const probe::Inventory& inv);
CheckResult check_throttle(const probe::Inventory& inv);
CheckResult check_power(const probe::Inventory& inv);
CheckResult check_persistence(const probe::Inventory& inv);
CheckResult check_compute_mode(const probe::Inventory& inv);
CheckResult check_mig(const probe::Inventory& inv);
CheckResult check_memory_in_use(const probe::Inventory& inv);
CheckResult check_p2p(const probe::Inventory& inv);
CheckResult check_p2p_path(const probe::Inventory& inv);
CheckResult check_pcie_gpu_link(const probe::Inventory& inv);
CheckResult check_pcie_replay(const probe::Inventory& inv);
CheckResult check_nic_link(const probe::Inventory& inv);
CheckResult check_nvlink_state(const probe::Inventory& inv);
CheckResult check_nvlink_errors(const probe::Inventory& inv);
CheckResult check_nvlink_symmetry(const probe::Inventory& inv);
CheckResult check_fabric(const probe::Inventory& inv);
CheckResult check_cuda_driver(const probe::Inventory& inv);
CheckResult check_cuda_runtime(const probe::Inventory& inv);
CheckResult check_peer_access(const probe::Inventory& inv);
CheckResult check_socket_ifname(const probe::Inventory& inv);
CheckResult check_mtu(const probe::Inventory& inv);
CheckResult check_ib_port_state(const probe::Inventory& inv);
CheckResult check_ib_rate(const probe::Inventory& inv);
CheckResult check_ib_counters(const probe::Inventory& inv);
CheckResult check_roce_gid(const probe::Inventory& inv);
CheckResult check_peermem(const probe::Inventory& inv);
CheckResult check_gpu_nic_affinity(const probe::Inventory& inv);
CheckResult check_nccl_versions(const probe::Inventory& inv);
CheckResult check_torch_nccl(const probe::Inventory& inv);
CheckResult check_python_stack(const probe::Inventory& inv);
CheckResult check_env_fake(const probe::Inventory& inv);
CheckResult check_env_removed(const probe::Inventory& inv);
CheckResult check_env_torch_aliases(const probe::Inventory& inv);
CheckResult check_env_values(const probe::Inventory& inv);
CheckResult check_env_disable(const probe::Inventory& inv);
CheckResult check_driver_loaded(const probe::Inventory& inv);
CheckResult check_shm_size(const probe::Inventory& inv);
CheckResult check_shm_free(const probe::Inventory& inv);
CheckResult check_memlock(const probe::Inventory& inv);
CheckResult check_nofile(const probe::Inventory& inv);
CheckResult check_iommu(const probe::Inventory& inv);
CheckResult check_acs(const probe::Inventory& inv);
CheckResult check_cpu_governor(const probe::Inventory& inv);
CheckResult check_numa(const probe::Inventory& inv);
CheckResult check_cgroup_cpu(const probe::Inventory& inv);
CheckResult check_cgroup_memory(const probe::Inventory& inv);
CheckResult check_hostname(const probe::Inventory& inv);
CheckResult check_xid(const probe::Inventory& inv);
CheckResult check_gpu_health(const probe::Inventory& inv);  // per-GPU XID + ECC + remap + NVLink

}  // namespace ncdx::analyze
