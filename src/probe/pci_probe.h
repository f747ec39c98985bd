#pragma once
// PCI inventory from sysfs: NVIDIA GPUs (with or without a driver), NICs, and the ACS state of
// the bridges above them. Works from a rooted tree, so "8 GPUs on PCI, no driver" is a finding.
#include "probe/inventory.h"
#include "probe/sys_reader.h"

namespace ncdx::probe {

struct PciScan {
  std::vector<PciDevice> gpus, nics;
};

PciScan probe_pci(const SysReader& r);
// Reads one PCI function (bdf) from /sys/bus/pci/devices.
PciDevice read_pci_device(const SysReader& r, const std::string& bdf);
// ACS control of every bridge above the given devices.
std::vector<AcsBridge> probe_acs(const SysReader& r, const std::vector<PciDevice>& devices, SourceState& state);
// Parses the ACS extended capability out of PCI config space bytes; nullopt when the config is
// too short to hold extended capabilities (non-root readers get 64 bytes), -1 when no ACS cap.
std::optional<int> acs_control_from_config(std::string_view config);
// "16.0 GT/s PCIe" -> 16.0
std::optional<double> parse_link_speed(std::string_view s);
// 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6
std::optional<int> pcie_gen_from_speed(double gts);

}  // namespace ncdx::probe
