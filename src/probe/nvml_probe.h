#pragma once
// GPU inventory through NVML (vendor/nvml.h). A missing driver is a state, never a crash.
#include "probe/inventory.h"
#include "probe/sys_reader.h"

namespace ncdx::probe {

// `quick` skips per-link error counters and the O(n²) P2P/topology matrices.
NvmlInfo probe_nvml(const SysReader& sys, bool quick);
// "00000000:18:00.0" -> "0000:18:00.0" (sysfs form: 4-digit lower-case domain).
std::string normalize_bus_id(std::string_view bus_id);
// cpu bitmask words -> "0-55,112-167"
std::string cpulist_from_mask(const std::vector<unsigned long>& words);

}  // namespace ncdx::probe
