#pragma once
// Derived facts several doctor checks share: GPU counts across NVML and PCI, the interfaces
// NCCL's socket transport would pick, PCIe distance between devices, XID meanings.
#include <optional>
#include <string>
#include <vector>

#include "probe/inventory.h"

namespace ncdx::analyze {

bool nvml_ok(const probe::Inventory& inv);
// GPUs NVML sees, or NVIDIA GPUs on PCI when there is no driver.
int gpu_count(const probe::Inventory& inv);
bool has_ib(const probe::Inventory& inv);
// Reason string for GPU checks when NVML is not usable ("no NVIDIA driver", ...).
std::string nvml_skip_reason(const probe::Inventory& inv);

// Interfaces NCCL's socket transport may use (src/misc/socket.cc; reference nccl_env_vars.tsv
// NCCL_SOCKET_IFNAME): with NCCL_SOCKET_IFNAME, its [^][=]prefix list; otherwise ib* first, then
// anything but docker/lo/virbr, then docker, then lo. Only interfaces that are up (or unknown,
// as lo reports) count. `rule` says which rule matched.
std::vector<std::string> nccl_socket_interfaces(const std::vector<probe::NetIface>& net,
                                                const std::map<std::string, std::string>& env,
                                                std::string* rule = nullptr);
// Matches one NCCL_SOCKET_IFNAME spec against a name (exported for tests).
bool nccl_ifname_match(std::string_view spec, std::string_view name);

// PCIe distance like nvidia-smi/NCCL: "PIX" (one switch), "PXB" (several switches, no host
// bridge), "PHB" (through the host bridge), "NODE" (same NUMA node, different root complexes),
// "SYS" (across the CPU interconnect); nullopt when a path is unknown.
std::optional<std::string> pci_distance(const probe::PciDevice& a, const probe::PciDevice& b);
const probe::PciDevice* find_pci(const probe::Inventory& inv, const std::string& bdf);

// Short meaning of an NVIDIA XID and whether it is fatal for a job (needs reset/reboot/RMA).
struct XidInfo {
  std::string meaning;
  bool fatal = false;
};
XidInfo xid_info(int xid);

std::string join_limited(const std::vector<std::string>& items, std::size_t max = 6);

}  // namespace ncdx::analyze
