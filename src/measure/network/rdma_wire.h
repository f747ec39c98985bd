#pragma once
// What the two nodes of a pair tell each other to connect RC queue pairs (one per rail), sent
// over the pair's TCP connection, the way perftest's ib_write_bw and NCCL's IB transport exchange
// QP numbers, PSNs, LIDs/GIDs and the remote buffer before moving a QP to RTR; and the QP
// attributes of each transition (INIT → RTR → RTS), as NCCL's net_ib connect.cc sets them.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vendor/ibverbs.h"

namespace ncdx::measure {

struct RdmaEndpoint {
  std::uint16_t lid = 0;
  bool ethernet = false;       // RoCE: the peer addresses this end by GID
  std::uint8_t mtu = 0;        // enum ibv_mtu of the port (1 = 256 … 5 = 4096)
  std::uint32_t qpn = 0, psn = 0, rkey = 0;
  std::uint64_t addr = 0, len = 0;  // the buffer RDMA writes may target
  std::uint8_t gid[16] = {};
};

// A fixed little-endian record: "NCDXRDM1", a u32 count (≤ kMaxRails), then 48 bytes a rail.
inline constexpr std::size_t kMaxRails = 64;
std::string encode_endpoints(const std::vector<RdmaEndpoint>& eps);
// nullopt with *err (what was expected, at which byte) on anything malformed.
std::optional<std::vector<RdmaEndpoint>> decode_endpoints(std::string_view bytes, std::string* err);
std::size_t encoded_size(std::size_t rails);

// The knobs NCCL reads for its QPs (reference/nccl_env_vars.tsv, NVIDIA/nccl
// src/transport/net_ib/connect.cc @v2.30.7-1): NCCL_IB_TIMEOUT (20 from 2.23, 18 before),
// NCCL_IB_RETRY_CNT (7), NCCL_IB_SL and NCCL_IB_TC (-1 = 0 here: no config traffic class),
// NCCL_IB_PKEY (0).
struct QpParams {
  int timeout = 20, retry_cnt = 7, sl = 0, tc = 0, pkey_index = 0;
};
std::optional<QpParams> qp_params(const std::map<std::string, std::string>& env, std::string* err);

struct QpStep {
  vendor::ibv::QpAttr attr{};
  int mask = 0;
};
QpStep qp_to_init(int port, const QpParams& p);
// local: this end's record (its port's active MTU and its GID); the path MTU is the smaller of
// the two ends'. grh_required: the port's IBV_QPF_GRH_REQUIRED flag (vendor::ibv::kQpfGrhRequired).
QpStep qp_to_rtr(int port, int sgid_index, bool grh_required, const RdmaEndpoint& local, const RdmaEndpoint& remote,
                 const QpParams& p);
QpStep qp_to_rts(std::uint32_t local_psn, const QpParams& p);

}  // namespace ncdx::measure
