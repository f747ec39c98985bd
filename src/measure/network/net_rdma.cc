#include "measure/network/net_rdma.h"

#include <algorithm>
#include <cstdint>

#include "measure/network/net_cell.h"

namespace ncdx::measure {
namespace {

constexpr std::size_t kMaxErr = 1024;

bool send_u32(TcpSocket& s, std::uint32_t v, Deadline d, std::string* err) { return s.send_all(&v, sizeof v, d, err); }

// This side's endpoints, or its reason for having none (a zero length, then the text), so the
// peer can say why instead of timing out.
bool send_endpoints(TcpSocket& s, const std::string& wire, const std::string& why, Deadline d, std::string* err) {
  if (!wire.empty()) return send_u32(s, static_cast<std::uint32_t>(wire.size()), d, err) && s.send_all(wire.data(), wire.size(), d, err);
  std::string w = why.substr(0, kMaxErr);
  return send_u32(s, 0, d, err) && send_u32(s, static_cast<std::uint32_t>(w.size()), d, err) &&
         s.send_all(w.data(), w.size(), d, err);
}

// The peer's endpoints; nullopt with *err (transport trouble) or *peer_err (the peer's reason).
std::optional<std::vector<RdmaEndpoint>> recv_endpoints(TcpSocket& s, Deadline d, std::string* err, std::string* peer_err) {
  std::uint32_t n = 0;
  if (!s.recv_all(&n, sizeof n, d, err)) return std::nullopt;
  if (n == 0) {
    std::uint32_t k = 0;
    if (!s.recv_all(&k, sizeof k, d, err)) return std::nullopt;
    if (k > kMaxErr) {
      *err = "peer sent a " + std::to_string(k) + "-byte reason, at most " + std::to_string(kMaxErr);
      return std::nullopt;
    }
    peer_err->assign(k, '\0');
    if (!s.recv_all(peer_err->data(), k, d, err)) return std::nullopt;
    if (peer_err->empty()) *peer_err = "no reason given";
    return std::nullopt;
  }
  if (n > encoded_size(kMaxRails)) {
    *err = "peer announced " + std::to_string(n) + " bytes of endpoints, at most " + std::to_string(encoded_size(kMaxRails));
    return std::nullopt;
  }
  std::string wire(n, '\0');
  if (!s.recv_all(wire.data(), n, d, err)) return std::nullopt;
  return decode_endpoints(wire, err);
}

// Both ends: QPs created, endpoints swapped, QPs connected, and each told the other it is
// ready (a receive is posted before any ping can arrive). nullptr when the cell failed.
std::unique_ptr<RdmaPair> connect_pair(NetCell& c, TcpSocket& s, const RdmaPairPlan& p) {
  std::string err, why = p.node_err;
  std::unique_ptr<RdmaPair> pair;
  if (p.node) pair = RdmaPair::create(*p.node, kMaxRails, &why);
  std::string wire = pair ? encode_endpoints(pair->local()) : std::string();
  if (!send_endpoints(s, wire, "rdma: " + why, p.end, &err)) return fail(c, status_for(err), "rdma handshake: " + err), nullptr;
  std::string peer_err;
  auto remote = recv_endpoints(s, p.end, &err, &peer_err);
  if (!pair) return fail(c, "error", "this node: rdma: " + why), nullptr;
  if (!remote) {
    if (!peer_err.empty()) return fail(c, "error", "peer: " + peer_err), nullptr;
    return fail(c, status_for(err), "rdma handshake: " + err), nullptr;
  }
  bool ok = pair->connect(*remote, &why);
  char mine = ok ? 1 : 0, theirs = 0;
  if (!s.send_all(&mine, 1, p.end, &err) || !s.recv_all(&theirs, 1, p.end, &err))
    return fail(c, status_for(err), "rdma handshake: " + err), nullptr;
  if (!ok) return fail(c, "error", "this node: rdma: " + why), nullptr;
  if (!theirs) return fail(c, "error", "peer: rdma: could not connect its queue pairs"), nullptr;
  c.rails.resize(std::min(p.node->rails(), remote->size()));
  for (std::size_t r = 0; r < c.rails.size(); ++r) {
    c.rails[r].local = p.node->rail(r).dev + ":" + std::to_string(p.node->rail(r).port);
    c.rails[r].remote = r < p.peer_rails.size() ? p.peer_rails[r] : "";
  }
  return pair;
}

// Best of kStreamsPerDirection on every rail, then the turn passes ('D' over TCP).
bool write_all_rails(NetCell& c, RdmaPair& pair, TcpSocket& s, const RdmaPairPlan& p, const NetOptions& opt) {
  std::string err;
  for (std::size_t r = 0; r < c.rails.size(); ++r)
    for (int k = 0; k < kStreamsPerDirection; ++k) {
      auto bw = pair.write_stream(r, opt.rdma_bytes, p.end, &err);
      if (!bw) return fail(c, status_for(err), "rail " + c.rails[r].local + ": " + err), false;
      c.rails[r].gbps = std::max(c.rails[r].gbps.value_or(0), *bw);
    }
  char done = 'D';
  if (!s.send_all(&done, 1, p.end, &err)) return fail(c, status_for(err), "rdma turn: " + err), false;
  return true;
}

bool wait_turn(NetCell& c, TcpSocket& s, const RdmaPairPlan& p) {
  std::string err;
  char done = 0;
  if (!s.recv_all(&done, 1, p.end, &err)) return fail(c, status_for(err), "peer writes: " + err), false;
  return true;
}

}  // namespace

void summarise_rails(NetCell& c) {
  for (const auto& r : c.rails) {
    if (r.gbps) c.gbps = std::min(c.gbps.value_or(*r.gbps), *r.gbps);
    if (r.lat_median_us) c.lat_median_us = std::max(c.lat_median_us.value_or(*r.lat_median_us), *r.lat_median_us);
  }
}

void rdma_client(NetCell& c, TcpSocket& s, const RdmaPairPlan& p, const NetOptions& opt) {
  c.transport = "rdma";
  auto pair = connect_pair(c, s, p);
  if (!pair) return;
  std::string err;
  std::vector<double> all;
  for (std::size_t r = 0; r < c.rails.size(); ++r) {
    // Each rail gets an equal share of what is left of the ping-pong's time.
    auto left = p.lat_end - Clock::now();
    auto stop = Clock::now() + left / static_cast<long>(c.rails.size() - r);
    std::vector<double> one_way;
    if (!pair->ping(r, kPingWarmup, opt.ping_iters, stop, p.end, &one_way, &err))
      return fail(c, status_for(err), "rail " + c.rails[r].local + " ping-pong: " + err);
    if (!one_way.empty()) c.rails[r].lat_median_us = percentile(one_way, 0.5);
    all.insert(all.end(), one_way.begin(), one_way.end());
  }
  c.samples = static_cast<int>(all.size());
  if (!write_all_rails(c, *pair, s, p, opt) || !wait_turn(c, s, p)) return;
  summarise_rails(c);
  if (!all.empty()) {
    c.lat_min_us = *std::min_element(all.begin(), all.end());
    c.lat_p99_us = percentile(all, 0.99);
  }
  c.status = "ok";
}

void rdma_server(NetCell& c, TcpSocket& s, const RdmaPairPlan& p, const NetOptions& opt) {
  c.transport = "rdma";
  auto pair = connect_pair(c, s, p);
  if (!pair) return;
  std::string err;
  for (std::size_t r = 0; r < c.rails.size(); ++r)
    if (!pair->echo(r, p.end, &err)) return fail(c, status_for(err), "rail " + c.rails[r].local + " ping-pong: " + err);
  if (!wait_turn(c, s, p) || !write_all_rails(c, *pair, s, p, opt)) return;
  summarise_rails(c);
  c.status = "ok";
}

}  // namespace ncdx::measure
