#include "measure/network/rdma_link.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>

namespace ncdx::measure {
namespace {

namespace ibv = vendor::ibv;
using Clock = std::chrono::steady_clock;

// The buffer of a rail: the write target [0, bytes), then a 64-byte slot to send pings from and
// one to receive them into.
constexpr std::size_t kSlot = 64, kPingBytes = 8;
constexpr int kWindow = 16;  // RDMA WRITEs in flight, ib_write_bw's default tx depth is 128; 16 fill a 400G link with 1 MiB writes
constexpr int kCqDepth = 64;

std::string wc_text(int status) {
  const auto& v = ibv::verbs();
  const char* s = v.api.wc_status_str ? v.api.wc_status_str(status) : nullptr;
  return std::string(s ? s : "error") + " (" + std::to_string(status) + ")";
}

// One completion, polled until `end` (the clock is read every 1024 empty polls: a poll is ~100 ns).
bool wait_wc(ibv::Cq* cq, ibv::Wc* wc, RdmaDeadline end, const char* what, std::string* err) {
  for (unsigned spins = 0;; ++spins) {
    int n = ibv::poll_cq(cq, 1, wc);
    if (n < 0) {
      *err = std::string(what) + ": poll_cq failed";
      return false;
    }
    if (n == 1) {
      if (wc->status == ibv::kWcSuccess) return true;
      *err = std::string(what) + ": completion " + wc_text(wc->status);
      return false;
    }
    if ((spins & 1023) == 0 && Clock::now() >= end) {
      *err = std::string(what) + ": timed out";
      return false;
    }
  }
}

std::uint32_t random_psn() {
  static thread_local std::mt19937 rng{std::random_device{}()};
  return rng() & 0xffffff;  // PSNs are 24 bits
}

}  // namespace

struct RdmaNode::Rail {
  RdmaRail info;
  ibv::Context* ctx = nullptr;
  ibv::Pd* pd = nullptr;
  ibv::Mr* mr = nullptr;
  char* buf = nullptr;
  ibv::PortAttr port{};
  ibv::Gid gid{};
  ~Rail() {
    const auto& a = ibv::verbs().api;
    if (mr) a.dereg_mr(mr);
    if (pd) a.dealloc_pd(pd);
    if (ctx) a.close_device(ctx);
    std::free(buf);
  }
};

struct RdmaPair::Qp {
  RdmaNode::Rail* rail = nullptr;
  ibv::Cq* send_cq = nullptr;
  ibv::Cq* recv_cq = nullptr;
  ibv::Qp* qp = nullptr;
  std::uint32_t psn = 0;
  bool inline_ping = false;  // the QP takes kPingBytes inline (init.cap.max_inline_data)
  RdmaEndpoint remote;
  ~Qp() {
    const auto& a = ibv::verbs().api;
    if (qp) a.destroy_qp(qp);
    if (send_cq) a.destroy_cq(send_cq);
    if (recv_cq) a.destroy_cq(recv_cq);
  }
  bool post_recv(std::string* err) {
    ibv::Sge sge{reinterpret_cast<std::uintptr_t>(rail->buf) + rail->mr->length - kSlot, kPingBytes, rail->mr->lkey};
    ibv::RecvWr wr{};
    wr.wr_id = 1;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv::RecvWr* bad = nullptr;
    if (ibv::post_recv(qp, &wr, &bad) == 0) return true;
    *err = "post_recv failed";
    return false;
  }
  bool send_ping(char tag, RdmaDeadline end, std::string* err) {
    char* slot = rail->buf + rail->mr->length - 2 * kSlot;
    slot[0] = tag;
    ibv::Sge sge{reinterpret_cast<std::uintptr_t>(slot), kPingBytes, rail->mr->lkey};
    ibv::SendWr wr{};
    wr.wr_id = 2;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = ibv::kWrSend;
    // Inline, the HCA takes the bytes from the work request instead of reading the slot over
    // PCIe: ib_send_lat sends its small messages so (perftest src/perftest_resources.c
    // run_iter_lat_send: size <= inline_size sets IBV_SEND_INLINE).
    wr.send_flags = ibv::kSendSignaled | (inline_ping ? ibv::kSendInline : 0u);
    ibv::SendWr* bad = nullptr;
    if (ibv::post_send(qp, &wr, &bad) != 0) {
      *err = "post_send failed";
      return false;
    }
    ibv::Wc wc{};
    return wait_wc(send_cq, &wc, end, "send", err);
  }
  char received() const { return rail->buf[rail->mr->length - kSlot]; }
};

std::unique_ptr<RdmaNode> RdmaNode::open(const std::vector<RdmaRail>& rails, std::size_t buf_bytes,
                                         const std::map<std::string, std::string>& env, std::string* err) {
  const auto& v = ibv::verbs();
  if (!v.ok) {
    *err = v.detail;
    return nullptr;
  }
  if (rails.empty()) {
    *err = "no RDMA rail selected";
    return nullptr;
  }
  std::unique_ptr<RdmaNode> node(new RdmaNode);
  auto params = qp_params(env, err);
  if (!params) return nullptr;
  node->params_ = *params;
  node->buf_bytes_ = buf_bytes;
  // Before any device is opened, as NCCL does (src/transport/net_ib/init.cc:300@v2.30.7-1): after
  // a fork (measure/collective/mpirun_trial.cc's) this process's next write to a registered page
  // can land on a copy the HCA does not see, unless the kernel copies pinned pages at fork.
  // ibv_fork_init makes later registrations MADV_DONTFORK where the kernel says it does not
  // (rdma-core libibverbs/memory.c:125-141 and ibdev_nl.c:243@v44.0, man ibv_fork_init.3). Its
  // EINVAL (memory was registered already, say by the MPI) changes nothing here.
  static const int fork_rc = v.api.fork_init();
  (void)fork_rc;
  int n = 0;
  ibv::Device** list = v.api.get_device_list(&n);
  if (!list) {
    // rdma-core returns NULL with ENOSYS when the kernel offers no verbs (no RDMA driver loaded).
    const int e = errno;
    *err = "no RDMA device: ibv_get_device_list: " + std::string(std::strerror(e)) +
           (e == ENOSYS ? " (no kernel RDMA support)" : "");
    return nullptr;
  }
  for (const auto& want : rails) {
    auto r = std::make_unique<Rail>();
    r->info = want;
    for (int i = 0; i < n && !r->ctx; ++i) {
      const char* name = v.api.get_device_name(list[i]);
      if (name && want.dev == name) r->ctx = v.api.open_device(list[i]);
    }
    std::string where = want.dev + ":" + std::to_string(want.port);
    if (!r->ctx) {
      *err = where + ": ibv_open_device failed or no such device (" + std::to_string(n) + " devices listed)";
      break;
    }
    auto port = static_cast<std::uint8_t>(want.port);
    if (v.api.query_port(r->ctx, port, &r->port) != 0 || r->port.state != ibv::kPortActive) {
      *err = where + ": port not ACTIVE (ibv_query_port state " + std::to_string(r->port.state) + ")";
      break;
    }
    if (v.api.query_gid(r->ctx, port, want.gid_index, &r->gid) != 0) {
      *err = where + ": ibv_query_gid " + std::to_string(want.gid_index) + " failed";
      break;
    }
    const std::size_t total = buf_bytes + 2 * kSlot;
    r->buf = static_cast<char*>(std::aligned_alloc(4096, (total + 4095) / 4096 * 4096));
    r->pd = r->buf ? v.api.alloc_pd(r->ctx) : nullptr;
    r->mr = r->pd ? v.api.reg_mr(r->pd, r->buf, total, ibv::kAccessLocalWrite | ibv::kAccessRemoteWrite) : nullptr;
    if (!r->mr) {
      *err = where + ": cannot register " + std::to_string(total) + " bytes (ibv_alloc_pd/ibv_reg_mr; memlock limit?)";
      break;
    }
    std::memset(r->buf, 0, total);
    node->rails_.push_back(std::move(r));
  }
  v.api.free_device_list(list);
  if (node->rails_.size() != rails.size()) return nullptr;
  return node;
}

RdmaNode::~RdmaNode() = default;
std::size_t RdmaNode::rails() const { return rails_.size(); }
const RdmaRail& RdmaNode::rail(std::size_t r) const { return rails_[r]->info; }

std::unique_ptr<RdmaPair> RdmaPair::create(RdmaNode& node, std::size_t rails, std::string* err) {
  const auto& a = ibv::verbs().api;
  std::unique_ptr<RdmaPair> p(new RdmaPair);
  p->node_ = &node;
  for (std::size_t r = 0; r < std::min(rails, node.rails()); ++r) {
    auto q = std::make_unique<Qp>();
    q->rail = node.rails_[r].get();
    q->send_cq = a.create_cq(q->rail->ctx, kCqDepth, nullptr, nullptr, 0);
    q->recv_cq = a.create_cq(q->rail->ctx, kCqDepth, nullptr, nullptr, 0);
    // Asked for room to send a ping inline, then without it where the provider has none; the
    // provider writes the sizes it gave back into init.cap.
    for (std::uint32_t inl : {static_cast<std::uint32_t>(kPingBytes), 0u}) {
      if (!q->send_cq || !q->recv_cq || q->qp) break;
      ibv::QpInitAttr init{};
      init.send_cq = q->send_cq;
      init.recv_cq = q->recv_cq;
      init.cap = {static_cast<std::uint32_t>(kWindow) * 2, 4, 1, 1, inl};
      init.qp_type = ibv::kQptRc;
      q->qp = a.create_qp(q->rail->pd, &init);
      q->inline_ping = q->qp && inl > 0 && init.cap.max_inline_data >= kPingBytes;
    }
    if (!q->qp) {
      *err = q->rail->info.dev + ": ibv_create_cq/ibv_create_qp failed";
      return nullptr;
    }
    q->psn = random_psn();
    auto init = qp_to_init(q->rail->info.port, node.params_);
    if (a.modify_qp(q->qp, &init.attr, init.mask) != 0) {
      *err = q->rail->info.dev + ": QP to INIT failed";
      return nullptr;
    }
    p->qps_.push_back(std::move(q));
  }
  return p;
}

RdmaPair::~RdmaPair() = default;

std::vector<RdmaEndpoint> RdmaPair::local() const {
  std::vector<RdmaEndpoint> out;
  for (const auto& q : qps_) {
    RdmaEndpoint e;
    e.lid = q->rail->port.lid;
    e.ethernet = q->rail->port.link_layer == ibv::kLinkLayerEthernet;
    e.mtu = static_cast<std::uint8_t>(q->rail->port.active_mtu);
    e.qpn = q->qp->qp_num;
    e.psn = q->psn;
    e.rkey = q->rail->mr->rkey;
    e.addr = reinterpret_cast<std::uintptr_t>(q->rail->buf);
    e.len = node_->buf_bytes_;
    std::memcpy(e.gid, q->rail->gid.raw, 16);
    out.push_back(e);
  }
  return out;
}

bool RdmaPair::connect(const std::vector<RdmaEndpoint>& remote, std::string* err) {
  const auto& a = ibv::verbs().api;
  if (remote.size() < qps_.size()) qps_.resize(remote.size());  // rail r meets rail r; extra rails idle
  const auto mine = local();
  for (std::size_t r = 0; r < qps_.size(); ++r) {
    auto& q = *qps_[r];
    q.remote = remote[r];
    const auto& p = node_->params_;
    auto rtr = qp_to_rtr(q.rail->info.port, q.rail->info.gid_index, (q.rail->port.flags & ibv::kQpfGrhRequired) != 0,
                         mine[r], remote[r], p);
    auto rts = qp_to_rts(q.psn, p);
    if (a.modify_qp(q.qp, &rtr.attr, rtr.mask) != 0) {
      *err = q.rail->info.dev + ": QP to RTR failed (peer QP " + std::to_string(remote[r].qpn) + ")";
      return false;
    }
    if (a.modify_qp(q.qp, &rts.attr, rts.mask) != 0) {
      *err = q.rail->info.dev + ": QP to RTS failed";
      return false;
    }
    if (!q.post_recv(err)) return false;
  }
  if (qps_.empty()) {
    *err = "no rail in common with the peer";
    return false;
  }
  return true;
}

bool RdmaPair::ping(std::size_t r, int warmup, int iters, RdmaDeadline stop, RdmaDeadline end,
                    std::vector<double>* one_way_us, std::string* err) {
  auto& q = *qps_[r];
  ibv::Wc wc{};
  // The receive posted at connect waits for the first pong; each pong reposts it.
  for (int i = 0; i < warmup + iters && Clock::now() < stop; ++i) {
    auto t0 = Clock::now();
    if (!q.send_ping('P', end, err) || !wait_wc(q.recv_cq, &wc, end, "pong", err) || !q.post_recv(err)) return false;
    if (i >= warmup) one_way_us->push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / 2);
  }
  return q.send_ping('E', end, err);
}

bool RdmaPair::echo(std::size_t r, RdmaDeadline end, std::string* err) {
  auto& q = *qps_[r];
  ibv::Wc wc{};
  for (;;) {
    if (!wait_wc(q.recv_cq, &wc, end, "ping", err)) return false;
    if (q.received() == 'E') return true;
    if (!q.post_recv(err) || !q.send_ping('P', end, err)) return false;
  }
}

std::optional<double> RdmaPair::write_stream(std::size_t r, std::uint64_t bytes, RdmaDeadline end, std::string* err) {
  auto& q = *qps_[r];
  const std::uint64_t chunk = std::min<std::uint64_t>(node_->buf_bytes_, q.remote.len);
  if (chunk == 0) {
    *err = "write: empty buffer";
    return std::nullopt;
  }
  const std::uint64_t writes = (bytes + chunk - 1) / chunk;
  std::uint64_t posted = 0, done = 0;
  ibv::Wc wc[kWindow];
  auto t0 = Clock::now();
  while (done < writes) {
    while (posted < writes && posted - done < static_cast<std::uint64_t>(kWindow)) {
      ibv::Sge sge{reinterpret_cast<std::uintptr_t>(q.rail->buf), static_cast<std::uint32_t>(chunk), q.rail->mr->lkey};
      ibv::SendWr wr{};
      wr.wr_id = posted;
      wr.sg_list = &sge;
      wr.num_sge = 1;
      wr.opcode = ibv::kWrRdmaWrite;
      wr.send_flags = ibv::kSendSignaled;
      wr.remote_addr = q.remote.addr;
      wr.rkey = q.remote.rkey;
      ibv::SendWr* bad = nullptr;
      if (ibv::post_send(q.qp, &wr, &bad) != 0) {
        *err = "write: post_send failed";
        return std::nullopt;
      }
      ++posted;
    }
    for (unsigned spins = 0;; ++spins) {
      int n = ibv::poll_cq(q.send_cq, kWindow, wc);
      if (n < 0) {
        *err = "write: poll_cq failed";
        return std::nullopt;
      }
      for (int i = 0; i < n; ++i)
        if (wc[i].status != ibv::kWcSuccess) {
          *err = "write: completion " + wc_text(wc[i].status);
          return std::nullopt;
        }
      done += static_cast<std::uint64_t>(n);
      if (n > 0) break;
      if ((spins & 1023) == 0 && Clock::now() >= end) {
        *err = "write: timed out";
        return std::nullopt;
      }
    }
  }
  double sec = std::chrono::duration<double>(Clock::now() - t0).count();
  if (sec <= 0) return std::nullopt;
  return static_cast<double>(writes * chunk) * 8 / sec / 1e9;
}

}  // namespace ncdx::measure
