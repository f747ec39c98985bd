#pragma once
// Which RDMA ports a node's matrix measures, chosen as NCCL's IB transport chooses them, from the
// node's sysfs inventory (probe/net_probe.cc; abi.md §7.1): every ACTIVE port of every device, in
// device-name order, filtered by NCCL_IB_HCA, and on RoCE the GID NCCL would use. Rail r of one
// node is measured against rail r of the other (on a rail-optimised fabric that is the path
// NCCL's traffic takes between them).
#include <cstdint>
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

// The rails of a node; env supplies NCCL_IB_HCA, NCCL_IB_GID_INDEX, NCCL_IB_ROCE_VERSION_NUM,
// NCCL_IB_ADDR_FAMILY, NCCL_IB_ADDR_RANGE and NCCL_IB_ROUTABLE_FLID_GID_INDEX (malformed values,
// which NCCL would ignore or misread, are reported in why_none and select nothing).
RailChoice choose_rails(const std::vector<probe::IbDevice>& devs, const std::map<std::string, std::string>& env);

// NCCL_IB_ADDR_RANGE: "address/bits" of the NCCL_IB_ADDR_FAMILY family, which a RoCE GID must
// fall in to be chosen automatically (envIbAddrRange, NVIDIA/nccl
// src/transport/net_ib/connect.cc:119@v2.30.7-1).
struct GidRange {
  bool v4 = true;
  std::uint8_t addr[16] = {};  // v4: the first 4 bytes
  int bits = 0;
};

// The GID entries read: the probe keeps the non-empty ones below this index (probe/net_probe.cc).
inline constexpr int kGidsRead = 32;

// NCCL ≥ 2.21's automatic RoCE GID (NCCL_IB_GID_INDEX = -1), as ncclIbGetGidIndex and
// ncclUpdateGidIndex choose it (connect.cc:268-345@v2.30.7-1): start at entry 0 and let every
// later entry challenge the one held. A GID of the wanted family (`ipv4`: IPv4-mapped) in
// `range` wins over one of the other family whatever its version; within the family a valid
// one (not empty, not link-local fe80::/64) of RoCE version `roce` wins over one of another
// version or an invalid one. Never "none": with nothing better NCCL keeps entry 0.
int nccl_roce_gid_index(const std::vector<probe::IbGid>& gids, bool ipv4, int roce, const std::optional<GidRange>& range);
// On InfiniBand NCCL uses `routable` (NCCL_IB_ROUTABLE_FLID_GID_INDEX, 1) when that GID carries
// a FLID, else 0; NCCL_IB_GID_INDEX is not read there (connect.cc:302-314@v2.30.7-1).
int nccl_ib_gid_index(const std::vector<probe::IbGid>& gids, int routable);

}  // namespace ncdx::measure
