#pragma once
// Network inventory from sysfs: IP interfaces (/sys/class/net) and RDMA ports
// (/sys/class/infiniband, Linux drivers/infiniband/core/sysfs.c) with GIDs and error counters.
#include "probe/inventory.h"
#include "probe/sys_reader.h"

namespace ncdx::probe {

std::vector<NetIface> probe_net(const SysReader& r);
std::vector<IbDevice> probe_ib(const SysReader& r);
// "400 Gb/sec (4X NDR)" -> 400
std::optional<double> parse_ib_rate(std::string_view s);

}  // namespace ncdx::probe
