#pragma once
// RC queue pairs between two nodes over ibverbs (vendor/ibverbs.h), one per rail: the RDMA side
// of the network matrix (net_matrix.h). Latency is a SEND/RECV ping-pong of 8 bytes, as
// perftest's ib_send_lat measures it (one-way = round trip / 2); bandwidth is RDMA WRITEs of the
// registered buffer with a window of outstanding writes, as ib_write_bw measures it. Every wait
// polls the completion queue against the caller's deadline, so a dead peer or link ends as a
// timeout, never a hang. This path needs an RDMA device: it is compiled and its parts are
// unit-tested everywhere, but it has not run on hardware in ncdx's tests (docs/CLUSTER.md).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "measure/network/rdma_rails.h"
#include "measure/network/rdma_wire.h"

namespace ncdx::measure {

using RdmaDeadline = std::chrono::steady_clock::time_point;

// A node's opened rails (device context, protection domain, one registered buffer each), opened
// once per session.
class RdmaNode {
 public:
  // nullptr with *err when libibverbs, a device, a port or the registration fails.
  static std::unique_ptr<RdmaNode> open(const std::vector<RdmaRail>& rails, std::size_t buf_bytes,
                                        const std::map<std::string, std::string>& env, std::string* err);
  ~RdmaNode();
  RdmaNode(const RdmaNode&) = delete;
  RdmaNode& operator=(const RdmaNode&) = delete;
  std::size_t rails() const;
  const RdmaRail& rail(std::size_t r) const;

  struct Rail;  // rdma_link.cc

 private:
  RdmaNode() = default;
  friend class RdmaPair;
  std::vector<std::unique_ptr<Rail>> rails_;
  QpParams params_;
  std::size_t buf_bytes_ = 0;
};

// The queue pairs of one pair of nodes, one per rail both have.
class RdmaPair {
 public:
  static std::unique_ptr<RdmaPair> create(RdmaNode& node, std::size_t rails, std::string* err);
  ~RdmaPair();
  RdmaPair(const RdmaPair&) = delete;
  RdmaPair& operator=(const RdmaPair&) = delete;
  std::vector<RdmaEndpoint> local() const;
  // INIT → RTR → RTS on every rail, and one receive posted on each.
  bool connect(const std::vector<RdmaEndpoint>& remote, std::string* err);
  // The client's side of the ping-pong on rail r: `warmup` untimed round trips (a new QP's
  // first ones are not the link's; the TCP ping-pong skips as many), then round trips / 2 in µs, until
  // `iters` or `stop`; then the end marker. false with *err on an error or at `end`.
  bool ping(std::size_t r, int warmup, int iters, RdmaDeadline stop, RdmaDeadline end,
            std::vector<double>* one_way_us, std::string* err);
  // The server's side: echoes until the end marker.
  bool echo(std::size_t r, RdmaDeadline end, std::string* err);
  // RDMA WRITEs of `bytes` in all into the peer's buffer on rail r; Gb/s from the first post
  // to the last completion (an RC write completes when the peer's HCA acknowledged it).
  std::optional<double> write_stream(std::size_t r, std::uint64_t bytes, RdmaDeadline end, std::string* err);

 private:
  struct Qp;  // rdma_link.cc
  RdmaPair() = default;
  RdmaNode* node_ = nullptr;
  std::vector<std::unique_ptr<Qp>> qps_;
};

}  // namespace ncdx::measure
