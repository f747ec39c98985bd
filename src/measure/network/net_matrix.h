#pragma once
// The node×node network matrix over TCP (issue #14): small-message ping-pong latency and
// streaming bandwidth between every pair of nodes, on the address of the interface NCCL's
// socket transport would pick, in round-robin rounds (cluster/schedule/round_robin.h) so each
// node is in at most one pair at a time. Every pair is bounded in time: a peer that does not
// connect or stalls is "unreachable"/"timeout" and the rest of the matrix completes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <map>
#include <memory>
#include <utility>

#include "measure/network/rdma_rails.h"

namespace ncdx::cluster {
class Comm;
}

namespace ncdx::measure {

// The ping-pong of a pair must end within this share of the pair's budget (counted from the
// connect); a ping-pong cut there has fewer samples than asked (NetCell::samples).
inline constexpr double kPingShareOfBudget = 0.4;
// Streams per direction per pair; the best counts (net_matrix.cc says why). `--plan` predicts
// with the same count.
inline constexpr int kStreamsPerDirection = 3;
// Untimed round trips before the timed ones, on TCP and on every RDMA rail: the first ones of a
// new connection or QP are not the link's, and with 100 samples the 99th percentile would be
// the first one. `--plan` counts them.
inline constexpr int kPingWarmup = 5;

struct NetOptions {
  int ping_iters = 100;                 // timed round trips per pair (after 5 untimed)
  std::size_t ping_bytes = 8;           // small message, like osu_latency's smallest size
  std::size_t bw_bytes = 1 << 20;       // streamed per direction
  double pair_budget_s = 4.0;           // the whole pair (3 streams each way) must fit in this
  int port = 0;                         // 0 = ephemeral (published through the Comm)
  // "tcp"; "rdma": RC queue pairs on every node's rails (rdma_link.h), a node without them
  // makes its cells errors; "auto": rdma when every node opened its rails, else tcp.
  std::string transport = "tcp";
  std::uint64_t rdma_bytes = 64ull << 20;  // written per direction per rail (ib_write_bw moves 5000 x 64 KiB)
  // One RDMA WRITE, and the registered buffer of each rail: fixed, not bw_bytes, so --bw-bytes 4K
  // does not make the write stream latency-bound (16 writes of 4 KiB in flight move ~175 Gb/s at
  // a 3 µs round trip) nor --bw-bytes 1G pin a GiB per rail.
  std::size_t rdma_write_bytes = 1 << 20;
};

// One rail of an RDMA cell: this node's device:port against the peer's rail of the same index.
struct RailCell {
  std::string local, remote;
  std::optional<double> lat_median_us, gbps;
};

// One directed cell [i][j]: i measured it as the sender (bandwidth) or the client (latency).
struct NetCell {
  std::string status = "not-run";   // ok, unreachable, timeout, error, not-run, self
  std::string detail;               // why, for anything but ok
  std::optional<double> lat_median_us, lat_p99_us;  // one-way = round trip / 2 (osu convention)
  // The fastest round trip / 2. A path delay adds to every round trip, so it moves the minimum as
  // much as the median; scheduling on a loaded host adds to some of them, and of 100 round trips
  // some still get the CPU at once, so the minimum stays at the path's own cost (isolation.cc).
  std::optional<double> lat_min_us;
  std::optional<double> gbps;                        // i → j streaming
  std::optional<std::uint32_t> retrans;             // TCP retransmissions on i's socket (tcp_info)
  std::optional<std::uint32_t> segs_out;            // TCP segments i sent (tcp_info)
  int samples = 0;                                  // latency samples taken
  // Round trips of the ping-pong that took ≥ 200 ms, Linux's TCP_RTO_MIN (include/net/tcp.h):
  // an 8-byte ping whose packet is lost is the only one in flight, so no duplicate ACK can
  // trigger a fast retransmit; it waits for the loss probe or RTO timer (≥ TCP_RTO_MIN with one
  // packet out, tcp_schedule_loss_probe in net/ipv4/tcp_output.c). Scheduling delay alone on a
  // loaded host is milliseconds, not hundreds of them.
  int stalls = 0;
  std::string transport;            // "tcp" or "rdma" once measured
  std::vector<RailCell> rails;      // rdma: every rail; the cell holds the worst of them
};

struct NetMatrix {
  std::vector<std::string> hosts;   // node names, matrix order
  std::vector<std::string> ifaces;  // the interface each node used ("" when none)
  std::vector<std::string> addrs;   // its IPv4 address ("" when none)
  std::vector<std::vector<NetCell>> cell;  // [i][j], i ≠ j
  int rounds = 0;
  double pair_budget_s = 0;
  double wall_s = 0;
  std::size_t bw_bytes = 0;
  int ping_iters = 0;
  std::string transport = "tcp";    // what the session measured with
  std::string transport_note;       // why, when --transport auto chose tcp or a node had no rails
};

// A node's part: `node` is its index among `nodes` participants (-1: this rank only takes part
// in the barriers, e.g. a second rank on the same host). `iface`/`addr` are where it listens.
struct NetParticipant {
  int node = -1;
  int nodes = 0;
  std::string host, iface, addr;
  // The RDMA rails of this node (choose_rails on its inventory) and the env NCCL reads for its
  // QPs; used when NetOptions::transport is not "tcp".
  RailChoice rails;
  std::map<std::string, std::string> env;
};

// The endpoints of one measurement: every node listens once and learns every other node's
// address, then runs any number of schedules on them — the round-robin matrix, then the
// confirmation pass that re-measures suspects one pair at a time (analyze/cluster/confirm.h).
class NetSession {
 public:
  // Collective (an allgather of the endpoints).
  NetSession(cluster::Comm& comm, const NetParticipant& me, const NetOptions& opt);
  ~NetSession();
  // Collective: the pairs of a round (cluster::Round, lower index first) run at once, a barrier
  // between rounds. Root 0 returns the cells of every pair of `rounds` (the others stay
  // "not-run"); other ranks their own row.
  NetMatrix run(const std::vector<std::vector<std::pair<int, int>>>& rounds);

 private:
  struct State;  // the listener and every node's endpoint (net_matrix.cc)
  std::unique_ptr<State> st_;
};

// Collective over `comm`: every rank calls it. Root 0 returns the whole matrix; others return
// a matrix with only their row filled.
NetMatrix run_net_matrix(cluster::Comm& comm, const NetParticipant& me, const NetOptions& opt);

// IPv4 address of an interface (getifaddrs), "" when it has none.
std::string iface_ipv4(const std::string& iface);

}  // namespace ncdx::measure
