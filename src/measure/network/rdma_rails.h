#pragma once
// Which RDMA ports a node's matrix measures, chosen as NCCL's IB transport chooses them, from the
// node's sysfs inventory (probe/net_probe.cc; abi.md §7.1): every ACTIVE port of every device, in
// device-name order, filtered by NCCL_IB_HCA, and on RoCE the GID NCCL would use. Rail r of one
// node is measured against rail r of the other (on a rail-optimised fabric that is the path
// NCCL's traffic takes between them).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/inventory.h"

namespace ncdx::measure {

// NCCL_IB_HCA: "[^][=]dev[:port][,dev[:port]...]": '^' excludes, '=' matches whole names (a
// prefix otherwise), no port = every port (reference/nccl_env_vars.tsv NCCL_IB_HCA, NVIDIA/nccl
// src/transport/net_ib/init.cc @v2.30.7-1; the rail/plane fields of 2.30 are read and ignored).
struct HcaSpec {
  bool exclude = false, exact = false;
  struct Item {
    std::string dev;
    int port = -1;  // -1: any port
  };
  std::vector<Item> items;  // empty: every device
};
// nullopt with *err (what was expected) on a malformed value.
std::optional<HcaSpec> parse_hca_spec(std::string_view v, std::string* err);
bool hca_selected(const HcaSpec& s, std::string_view dev, int port);

struct RdmaRail {
  std::string dev;
  int port = 0;
  bool ethernet = false;  // RoCE: addressed by GID; InfiniBand: by LID
  int gid_index = 0;
  std::string gid;        // as sysfs prints it ("" when unknown)
  std::optional<double> rate_gbps;
};

struct RailChoice {
  std::vector<RdmaRail> rails;
  std::string why_none;   // when rails is empty: what was found and what was excluded
};

// The rails of a node; env supplies NCCL_IB_HCA, NCCL_IB_GID_INDEX, NCCL_IB_ROCE_VERSION_NUM and
// NCCL_IB_ADDR_FAMILY (malformed values are reported in why_none and select nothing).
RailChoice choose_rails(const std::vector<probe::IbDevice>& devs, const std::map<std::string, std::string>& env);

// NCCL ≥ 2.21's automatic RoCE GID (NCCL_IB_GID_INDEX = -1): the first GID of RoCE version `roce`
// (1: "IB/RoCE v1", 2: "RoCE v2") whose address is of `family` (AF_INET: IPv4-mapped
// ::ffff:a.b.c.d; AF_INET6: any other non-zero address); -1 when none.
int auto_gid_index(const std::vector<probe::IbGid>& gids, int roce, bool ipv4);

}  // namespace ncdx::measure
