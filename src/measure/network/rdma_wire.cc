#include "measure/network/rdma_wire.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "core/strings.h"

namespace ncdx::measure {
namespace {

namespace ibv = vendor::ibv;
constexpr char kMagic[8] = {'N', 'C', 'D', 'X', 'R', 'D', 'M', '1'};
constexpr std::size_t kHeader = 12, kRecord = 48;

void put(std::string& s, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
std::uint64_t get(std::string_view s, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}

}  // namespace

std::size_t encoded_size(std::size_t rails) { return kHeader + rails * kRecord; }

std::string encode_endpoints(const std::vector<RdmaEndpoint>& eps) {
  std::string s(kMagic, sizeof kMagic);
  put(s, eps.size(), 4);
  for (const auto& e : eps) {
    put(s, e.lid, 2);
    put(s, e.ethernet ? 1 : 0, 1);
    put(s, e.mtu, 1);
    put(s, e.qpn, 4);
    put(s, e.psn, 4);
    put(s, e.rkey, 4);
    put(s, e.addr, 8);
    put(s, e.len, 8);
    s.append(reinterpret_cast<const char*>(e.gid), 16);
  }
  return s;
}

std::optional<std::vector<RdmaEndpoint>> decode_endpoints(std::string_view b, std::string* err) {
  if (b.size() < kHeader || std::memcmp(b.data(), kMagic, sizeof kMagic) != 0) {
    *err = "rdma endpoints: expected the 'NCDXRDM1' header at byte 0";
    return std::nullopt;
  }
  std::uint64_t n = get(b, 8, 4);
  if (n > kMaxRails) {
    *err = "rdma endpoints: " + std::to_string(n) + " rails announced, at most " + std::to_string(kMaxRails);
    return std::nullopt;
  }
  if (b.size() != encoded_size(n)) {
    *err = "rdma endpoints: expected " + std::to_string(encoded_size(n)) + " bytes for " + std::to_string(n) +
           " rails, got " + std::to_string(b.size());
    return std::nullopt;
  }
  std::vector<RdmaEndpoint> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t at = kHeader + i * kRecord;
    auto& e = out[i];
    e.lid = static_cast<std::uint16_t>(get(b, at, 2));
    std::uint64_t eth = get(b, at + 2, 1);
    e.mtu = static_cast<std::uint8_t>(get(b, at + 3, 1));
    if (eth > 1 || e.mtu < ibv::kMtu256 || e.mtu > ibv::kMtu4096) {
      *err = "rdma endpoints: rail " + std::to_string(i) + " at byte " + std::to_string(at + 2) +
             ": expected a link-layer flag 0/1 and an MTU enum 1-5";
      return std::nullopt;
    }
    e.ethernet = eth == 1;
    e.qpn = static_cast<std::uint32_t>(get(b, at + 4, 4));
    e.psn = static_cast<std::uint32_t>(get(b, at + 8, 4));
    e.rkey = static_cast<std::uint32_t>(get(b, at + 12, 4));
    e.addr = get(b, at + 16, 8);
    e.len = get(b, at + 24, 8);
    std::memcpy(e.gid, b.data() + at + 32, 16);
  }
  return out;
}

std::optional<QpParams> qp_params(const std::map<std::string, std::string>& env, std::string* err) {
  QpParams p;
  auto read = [&](const char* name, int* v, int lo, int hi, int unset) {
    auto it = env.find(name);
    if (it == env.end()) return true;
    auto s = core::trim(it->second);
    int x = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), x);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || ((x < lo || x > hi) && x != unset)) {
      *err = std::string(name) + ": expected an integer " + std::to_string(lo) + "-" + std::to_string(hi) + ", got '" +
             std::string(s) + "'";
      return false;
    }
    if (x != unset) *v = x;
    return true;
  };
  // -1 is NCCL's "auto" for SL/TC (2.26+): the traffic class of its config, 0 without one.
  if (!read("NCCL_IB_TIMEOUT", &p.timeout, 1, 31, 1000) || !read("NCCL_IB_RETRY_CNT", &p.retry_cnt, 0, 7, 1000) ||
      !read("NCCL_IB_SL", &p.sl, 0, 15, -1) || !read("NCCL_IB_TC", &p.tc, 0, 255, -1) ||
      !read("NCCL_IB_PKEY", &p.pkey_index, 0, 0xffff, 1000))
    return std::nullopt;
  return p;
}

QpStep qp_to_init(int port, const QpParams& p) {
  QpStep s;
  s.attr.qp_state = ibv::kQpsInit;
  s.attr.pkey_index = static_cast<std::uint16_t>(p.pkey_index);
  s.attr.port_num = static_cast<std::uint8_t>(port);
  s.attr.qp_access_flags = ibv::kAccessLocalWrite | ibv::kAccessRemoteWrite;
  s.mask = ibv::kQpState | ibv::kQpPkeyIndex | ibv::kQpPort | ibv::kQpAccessFlags;
  return s;
}

QpStep qp_to_rtr(int port, int sgid_index, bool grh_required, const RdmaEndpoint& local, const RdmaEndpoint& remote,
                 const QpParams& p) {
  QpStep s;
  auto& a = s.attr;
  a.qp_state = ibv::kQpsRtr;
  a.path_mtu = std::min(local.mtu, remote.mtu);
  a.dest_qp_num = remote.qpn;
  a.rq_psn = remote.psn;
  a.max_dest_rd_atomic = 1;
  a.min_rnr_timer = 12;  // 0.64 ms, as NCCL and perftest set it
  a.ah_attr.port_num = static_cast<std::uint8_t>(port);
  a.ah_attr.sl = static_cast<std::uint8_t>(p.sl);
  auto global = [&](int tc) {
    a.ah_attr.is_global = 1;
    std::memcpy(a.ah_attr.grh.dgid.raw, remote.gid, 16);
    a.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(sgid_index);
    a.ah_attr.grh.hop_limit = 255;
    a.ah_attr.grh.traffic_class = static_cast<std::uint8_t>(tc);
  };
  if (remote.ethernet) {
    global(p.tc);  // RoCE has no LIDs: every packet carries a GRH to the peer's GID
  } else {
    // InfiniBand: by LID within a subnet. A GRH when the port requires one (the kernel refuses
    // an address vector without it: rdma-core libibverbs/man/ibv_modify_qp.3:177@v44.0) or the
    // peer is in another subnet, and then to its FLID when it has one; the subnet is the low 16
    // bits of the GID's prefix and the FLID its bytes 4-5, and NCCL sets no traffic class here
    // (ncclIbQpRtr, NVIDIA/nccl src/transport/net_ib/connect.cc:418-441@v2.30.7-1).
    const bool same_subnet = local.gid[6] == remote.gid[6] && local.gid[7] == remote.gid[7];
    const auto flid = static_cast<std::uint16_t>(remote.gid[4] << 8 | remote.gid[5]);
    a.ah_attr.dlid = !same_subnet && flid != 0 ? flid : remote.lid;
    if (!same_subnet || grh_required) global(0);
  }
  s.mask = ibv::kQpState | ibv::kQpAv | ibv::kQpPathMtu | ibv::kQpDestQpn | ibv::kQpRqPsn | ibv::kQpMaxDestRdAtomic |
           ibv::kQpMinRnrTimer;
  return s;
}

QpStep qp_to_rts(std::uint32_t local_psn, const QpParams& p) {
  QpStep s;
  auto& a = s.attr;
  a.qp_state = ibv::kQpsRts;
  a.sq_psn = local_psn;
  a.timeout = static_cast<std::uint8_t>(p.timeout);
  a.retry_cnt = static_cast<std::uint8_t>(p.retry_cnt);
  a.rnr_retry = 7;  // 7 = retry forever on RNR: the peer's receive may be posted a moment late
  a.max_rd_atomic = 1;
  s.mask = ibv::kQpState | ibv::kQpTimeout | ibv::kQpRetryCnt | ibv::kQpRnrRetry | ibv::kQpSqPsn | ibv::kQpMaxQpRdAtomic;
  return s;
}

}  // namespace ncdx::measure
