#pragma once
// Operating-system facts a training job depends on: kernel, driver, /dev/shm, ulimits, IOMMU,
// NUMA, CPU governor, container and cgroup limits, loaded modules.
#include "probe/inventory.h"
#include "probe/sys_reader.h"

namespace ncdx::probe {

OsInfo probe_os(const SysReader& r);
// /dev/shm size from mount-table text (tmpfs "size=" option; without it tmpfs defaults to half
// of RAM, so mem_total/2). Exposed for tests.
std::optional<std::uint64_t> shm_size_from_mounts(std::string_view mounts, std::optional<std::uint64_t> mem_total,
                                                  std::string* line_out = nullptr);
// "size=24683652k" style values (k, m, g, or %).
std::optional<std::uint64_t> parse_tmpfs_size(std::string_view v, std::optional<std::uint64_t> mem_total);

}  // namespace ncdx::probe
