#include "measure/network/net_matrix.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "cluster/mpi/comm.h"
#include "cluster/schedule/round_robin.h"
#include "measure/network/net_cell.h"
#include "measure/network/net_rdma.h"
#include "measure/network/tcp_link.h"

namespace ncdx::measure {
namespace {

constexpr char kMagic[8] = {'N', 'C', 'D', 'X', 'N', 'E', 'T', '1'};
constexpr int kWarmup = kPingWarmup;
// Streams per direction; the best counts. On a busy host one stream can lose a scheduler slice
// on either end, which reads as a slow link; the best of three does not.
constexpr int kStreams = kStreamsPerDirection;
// A round trip this long is a retransmission timeout, not scheduling (NetCell::stalls).
constexpr double kStallRttUs = 200e3;

struct Hello {
  char magic[8];
  std::uint32_t round, node;
};

using Sec = std::chrono::duration<double>;

Deadline after(Clock::time_point t, double s) {
  return t + std::chrono::duration_cast<Clock::duration>(Sec(s));
}

void record_tcp(NetCell& c, const TcpSocket& s) {
  if (auto i = s.info()) {
    c.retrans = i->retrans;
    c.segs_out = i->segs_out;
  }
}

// Streams n bytes after an 8-byte length and waits for the receiver's 1-byte ack; Gb/s.
std::optional<double> stream_out(TcpSocket& s, std::size_t n, Deadline d, std::string* err) {
  thread_local std::vector<char> buf(1 << 20, 'b');
  auto t0 = Clock::now();
  std::uint64_t len = n;
  if (!s.send_all(&len, sizeof len, d, err)) return std::nullopt;
  std::size_t left = n;
  while (left > 0) {
    std::size_t k = std::min(left, buf.size());
    if (!s.send_all(buf.data(), k, d, err)) return std::nullopt;
    left -= k;
  }
  char ack = 0;
  if (!s.recv_all(&ack, 1, d, err)) return std::nullopt;
  double sec = Sec(Clock::now() - t0).count();
  return sec > 0 ? static_cast<double>(n) * 8 / sec / 1e9 : std::optional<double>();
}

bool stream_in(TcpSocket& s, std::size_t max, Deadline d, std::string* err) {
  thread_local std::vector<char> buf(1 << 20);
  std::uint64_t len = 0;
  if (!s.recv_all(&len, sizeof len, d, err)) return false;
  if (len > max) {
    *err = "peer announced " + std::to_string(len) + " bytes, more than the " + std::to_string(max) + " agreed";
    return false;
  }
  std::size_t left = len;
  while (left > 0) {
    std::size_t k = std::min<std::size_t>(left, buf.size());
    if (!s.recv_all(buf.data(), k, d, err)) return false;
    left -= k;
  }
  char ack = 1;
  return s.send_all(&ack, 1, d, err);
}

// The lower-numbered node of a pair: connects, times the ping-pong, streams first, then
// receives the peer's stream. Fills its own cell [me][peer].
void run_client(NetCell& c, const std::string& addr, int port, std::uint32_t round, std::uint32_t me,
                const NetOptions& opt, Clock::time_point start, RdmaPairPlan* rdma) {
  Deadline end = after(start, opt.pair_budget_s), lat_end = after(start, opt.pair_budget_s * kPingShareOfBudget);
  TcpSocket s;
  if (auto e = s.connect_until(addr, port, after(start, opt.pair_budget_s * 0.5)); !e.empty())
    return fail(c, "unreachable", e);
  std::string err;
  Hello h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.round = round;
  h.node = me;
  if (!s.send_all(&h, sizeof h, end, &err)) return fail(c, status_for(err), err);
  if (rdma) {
    rdma->lat_end = lat_end;
    rdma->end = end;
    return rdma_client(c, s, *rdma, opt);
  }
  c.transport = "tcp";
  std::vector<char> msg(std::max<std::size_t>(opt.ping_bytes, 1), 'P');
  std::vector<double> rtt;
  rtt.reserve(opt.ping_iters);
  for (int i = 0; i < kWarmup + opt.ping_iters && Clock::now() < lat_end; ++i) {
    auto t0 = Clock::now();
    if (!s.send_all(msg.data(), msg.size(), end, &err) || !s.recv_all(msg.data(), msg.size(), end, &err))
      return record_tcp(c, s), fail(c, status_for(err), "ping-pong: " + err);
    double rtt_us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    if (i >= kWarmup) rtt.push_back(rtt_us / 2);
    if (i >= kWarmup && rtt_us >= kStallRttUs) ++c.stalls;
  }
  msg[0] = 'E';
  if (!s.send_all(msg.data(), msg.size(), end, &err)) return fail(c, status_for(err), err);
  c.samples = static_cast<int>(rtt.size());
  if (!rtt.empty()) {
    c.lat_median_us = percentile(rtt, 0.5);
    c.lat_p99_us = percentile(rtt, 0.99);
    c.lat_min_us = *std::min_element(rtt.begin(), rtt.end());
  }
  for (int k = 0; k < kStreams; ++k) {
    auto bw = stream_out(s, opt.bw_bytes, end, &err);
    if (!bw) return record_tcp(c, s), fail(c, status_for(err), "stream: " + err);
    c.gbps = std::max(c.gbps.value_or(0), *bw);
  }
  for (int k = 0; k < kStreams; ++k)
    if (!stream_in(s, opt.bw_bytes, end, &err)) return record_tcp(c, s), fail(c, status_for(err), "peer stream: " + err);
  record_tcp(c, s);
  c.status = "ok";
}

// The higher-numbered node: accepts its partner (stale connections from an earlier round that
// timed out are closed), echoes pings, receives, then streams back. Fills [me][peer].
void run_server(NetCell& c, TcpSocket& listener, std::uint32_t round, std::uint32_t peer, const NetOptions& opt,
                Clock::time_point start, RdmaPairPlan* rdma) {
  Deadline end = after(start, opt.pair_budget_s);
  std::string err;
  TcpSocket s;
  for (;;) {
    s = listener.accept_until(after(start, opt.pair_budget_s * 0.5), &err);
    if (!s.valid()) return fail(c, "unreachable", err);
    Hello h{};
    if (!s.recv_all(&h, sizeof h, end, &err)) continue;
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) == 0 && h.round == round && h.node == peer) break;
  }
  if (rdma) {
    rdma->lat_end = after(start, opt.pair_budget_s * kPingShareOfBudget);
    rdma->end = end;
    return rdma_server(c, s, *rdma, opt);
  }
  c.transport = "tcp";
  std::vector<char> msg(std::max<std::size_t>(opt.ping_bytes, 1));
  for (;;) {
    if (!s.recv_all(msg.data(), msg.size(), end, &err)) return fail(c, status_for(err), "ping-pong: " + err);
    if (msg[0] == 'E') break;
    if (!s.send_all(msg.data(), msg.size(), end, &err)) return fail(c, status_for(err), "ping-pong: " + err);
  }
  for (int k = 0; k < kStreams; ++k)
    if (!stream_in(s, opt.bw_bytes, end, &err)) return record_tcp(c, s), fail(c, status_for(err), "peer stream: " + err);
  for (int k = 0; k < kStreams; ++k) {
    auto bw = stream_out(s, opt.bw_bytes, end, &err);
    if (!bw) return record_tcp(c, s), fail(c, status_for(err), "stream: " + err);
    c.gbps = std::max(c.gbps.value_or(0), *bw);
  }
  record_tcp(c, s);
  c.status = "ok";
}

nlohmann::json opt_j(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

nlohmann::json cell_to_json(int peer, const NetCell& c) {
  nlohmann::json j = {{"peer", peer}, {"status", c.status}, {"detail", c.detail}, {"samples", c.samples}, {"stalls", c.stalls},
                      {"lat_median_us", opt_j(c.lat_median_us)}, {"lat_p99_us", opt_j(c.lat_p99_us)},
                      {"lat_min_us", opt_j(c.lat_min_us)}, {"gbps", opt_j(c.gbps)}};
  j["retrans"] = c.retrans ? nlohmann::json(*c.retrans) : nlohmann::json();
  j["segs_out"] = c.segs_out ? nlohmann::json(*c.segs_out) : nlohmann::json();
  j["transport"] = c.transport;
  if (!c.rails.empty()) {
    j["rails"] = nlohmann::json::array();
    for (const auto& r : c.rails)
      j["rails"].push_back({{"local", r.local}, {"remote", r.remote}, {"lat_median_us", opt_j(r.lat_median_us)},
                            {"gbps", opt_j(r.gbps)}});
  }
  return j;
}

std::optional<double> get_d(const nlohmann::json& j, const char* k) {
  if (!j.contains(k) || !j[k].is_number()) return std::nullopt;
  return j[k].get<double>();
}

NetCell cell_from_json(const nlohmann::json& j) {
  NetCell c;
  c.status = j.value("status", "error");
  c.detail = j.value("detail", "");
  c.samples = j.value("samples", 0);
  c.stalls = j.value("stalls", 0);
  c.lat_median_us = get_d(j, "lat_median_us");
  c.lat_p99_us = get_d(j, "lat_p99_us");
  c.lat_min_us = get_d(j, "lat_min_us");
  c.gbps = get_d(j, "gbps");
  if (auto v = get_d(j, "retrans")) c.retrans = static_cast<std::uint32_t>(*v);
  if (auto v = get_d(j, "segs_out")) c.segs_out = static_cast<std::uint32_t>(*v);
  c.transport = j.value("transport", "");
  if (j.contains("rails") && j["rails"].is_array())
    for (const auto& rj : j["rails"])
      if (rj.is_object())
        c.rails.push_back({rj.value("local", ""), rj.value("remote", ""), get_d(rj, "lat_median_us"), get_d(rj, "gbps")});
  return c;
}

}  // namespace

std::string iface_ipv4(const std::string& iface) {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return "";
  std::string out;
  for (auto* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET || iface != a->ifa_name) continue;
    char buf[INET_ADDRSTRLEN] = {0};
    ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, buf, sizeof buf);
    out = buf;
    break;
  }
  ::freeifaddrs(list);
  return out;
}

struct NetSession::State {
  cluster::Comm& comm_;
  NetParticipant me_;
  NetOptions opt_;
  TcpSocket listener_;
  std::string listen_err_;
  std::vector<std::string> hosts_, ifaces_, addrs_, peer_err_;
  std::vector<int> ports_;
  std::uint32_t next_round_ = 0;  // rounds are numbered across runs: a stale peer never matches
  // RDMA (NetOptions::transport): this node's opened rails or why not, every node's rail names.
  std::unique_ptr<RdmaNode> rdma_;
  std::string rdma_err_;
  std::vector<std::vector<std::string>> rails_of_;
  std::string transport_ = "tcp", transport_note_;
};

NetSession::~NetSession() = default;

NetSession::NetSession(cluster::Comm& comm, const NetParticipant& me, const NetOptions& opt)
    : st_(new State{comm, me, opt, {}, {}, {}, {}, {}, {}, {}, 0, {}, {}, {}, "tcp", {}}) {
  auto& [comm_, me_, opt_, listener_, listen_err_, hosts_, ifaces_, addrs_, peer_err_, ports_, next_round_, rdma_,
         rdma_err_, rails_of_, transport_, transport_note_] = *st_;
  (void)comm_, (void)next_round_;
  const int n = me.nodes;
  if (me.node >= 0) {
    if (me.addr.empty()) listen_err_ = "no IPv4 address on interface '" + me.iface + "'";
    else listen_err_ = listener_.listen_on(me.addr, opt.port);
    if (opt.transport != "tcp") {
      rdma_err_ = me.rails.why_none.empty() ? "no RDMA rail selected" : me.rails.why_none;
      if (!me.rails.rails.empty()) rdma_ = RdmaNode::open(me.rails.rails, opt.rdma_write_bytes, me.env, &rdma_err_);
    }
  }
  // Everyone learns every node's endpoint (the ranks that only take part in barriers send node -1).
  nlohmann::json ep = {{"node", me.node}, {"host", me.host}, {"iface", me.iface}, {"addr", me.addr},
                       {"port", listener_.valid() ? listener_.local_port() : -1}, {"error", listen_err_},
                       {"rdma_error", rdma_ ? std::string() : rdma_err_}, {"rails", nlohmann::json::array()}};
  if (rdma_)
    for (std::size_t r = 0; r < rdma_->rails(); ++r)
      ep["rails"].push_back(rdma_->rail(r).dev + ":" + std::to_string(rdma_->rail(r).port));
  auto all = comm.allgather(ep.dump());
  hosts_.assign(n, "");
  ifaces_.assign(n, "");
  addrs_.assign(n, "");
  peer_err_.assign(n, "did not report an endpoint");  // a node that sent nothing keeps empty names
  ports_.assign(n, -1);
  rails_of_.assign(n, {});
  std::string not_ready;  // the first node that has no RDMA rails open, and why
  for (const auto& s : all) {
    auto j = nlohmann::json::parse(s, nullptr, false);
    int k = j.is_object() ? j.value("node", -1) : -1;
    if (k < 0 || k >= n) continue;
    hosts_[k] = j.value("host", "");
    ifaces_[k] = j.value("iface", "");
    addrs_[k] = j.value("addr", "");
    ports_[k] = j.value("port", -1);
    peer_err_[k] = j.value("error", "");
    if (j.contains("rails") && j["rails"].is_array())
      for (const auto& r : j["rails"])
        if (r.is_string()) rails_of_[k].push_back(r.get<std::string>());
    if (rails_of_[k].empty() && not_ready.empty())
      not_ready = (hosts_[k].empty() ? "node " + std::to_string(k) : hosts_[k]) + ": " + j.value("rdma_error", "no rails");
  }
  // Every rank decides alike from the same allgather.
  if (opt.transport == "rdma") {
    transport_ = "rdma";
    if (!not_ready.empty()) transport_note_ = "--transport rdma: " + not_ready;
  } else if (opt.transport == "auto") {
    transport_ = not_ready.empty() && n > 0 ? "rdma" : "tcp";
    transport_note_ = not_ready.empty() ? "--transport auto: every node opened its RDMA rails"
                                        : "--transport auto chose tcp: " + not_ready;
  }
}

NetMatrix NetSession::run(const std::vector<std::vector<std::pair<int, int>>>& rounds) {
  auto& [comm_, me_, opt_, listener_, listen_err_, hosts_, ifaces_, addrs_, peer_err_, ports_, next_round_, rdma_,
         rdma_err_, rails_of_, transport_, transport_note_] = *st_;
  auto t_start = Clock::now();
  NetMatrix m;
  m.pair_budget_s = opt_.pair_budget_s;
  m.bw_bytes = opt_.bw_bytes;
  m.ping_iters = opt_.ping_iters;
  const int n = me_.nodes;
  m.hosts = hosts_;
  m.ifaces = ifaces_;
  m.addrs = addrs_;
  m.transport = transport_;
  m.transport_note = transport_note_;
  std::vector<NetCell> row(n);
  if (me_.node >= 0) row[me_.node].status = "self";
  m.rounds = static_cast<int>(rounds.size());
  for (const auto& round : rounds) {
    const std::uint32_t r = next_round_++;
    comm_.barrier();  // rounds never overlap: a node is in one pair at a time
    if (me_.node < 0) continue;
    int peer = cluster::partner_in(round, me_.node);
    if (peer < 0) continue;
    NetCell& c = row[peer];
    c = NetCell{};  // a pair measured again (a later run) starts clean
    auto start = Clock::now();
    if (!listen_err_.empty()) fail(c, "error", "this node: " + listen_err_);
    else if (!peer_err_[peer].empty()) fail(c, "unreachable", "peer: " + peer_err_[peer]);
    else {
      RdmaPairPlan plan{rdma_.get(), rdma_err_, rails_of_[peer], {}, {}};
      RdmaPairPlan* rp = transport_ == "rdma" ? &plan : nullptr;
      if (me_.node < peer) run_client(c, addrs_[peer], ports_[peer], r, me_.node, opt_, start, rp);
      else run_server(c, listener_, r, static_cast<std::uint32_t>(peer), opt_, start, rp);
    }
  }
  // Rows to root 0.
  nlohmann::json mine = {{"node", me_.node}, {"cells", nlohmann::json::array()}};
  if (me_.node >= 0)
    for (int k = 0; k < n; ++k) mine["cells"].push_back(cell_to_json(k, row[k]));
  auto rows = comm_.gather(mine.dump());
  m.cell.assign(n, std::vector<NetCell>(n));
  for (int k = 0; k < n; ++k) m.cell[k][k].status = "self";
  if (me_.node >= 0) m.cell[me_.node] = row;
  for (const auto& s : rows) {
    auto j = nlohmann::json::parse(s, nullptr, false);
    if (!j.is_object()) continue;
    int k = j.value("node", -1);
    if (k < 0 || k >= n || !j["cells"].is_array()) continue;
    for (const auto& cj : j["cells"]) {
      int p = cj.value("peer", -1);
      if (p >= 0 && p < n) m.cell[k][p] = cell_from_json(cj);
    }
  }
  m.wall_s = Sec(Clock::now() - t_start).count();
  return m;
}

NetMatrix run_net_matrix(cluster::Comm& comm, const NetParticipant& me, const NetOptions& opt) {
  auto t_start = Clock::now();
  NetSession s(comm, me, opt);
  auto m = s.run(cluster::round_robin(me.nodes));
  m.wall_s = Sec(Clock::now() - t_start).count();
  return m;
}

}  // namespace ncdx::measure
