#pragma once
// The RDMA side of one matrix pair (net_matrix.cc): after the pair's TCP handshake, the two
// nodes exchange their rails' endpoints over that connection (rdma_wire.h), connect one RC QP per
// rail and measure on it; TCP then only carries the handshake and the turn-taking between the
// phases. The lower-numbered node (client) times the ping-pong and writes first.
#include <string>
#include <vector>

#include "measure/network/net_matrix.h"
#include "measure/network/rdma_link.h"
#include "measure/network/tcp_link.h"

namespace ncdx::measure {

struct RdmaPairPlan {
  RdmaNode* node = nullptr;                 // nullptr: this node could not open its rails
  std::string node_err;                     // why not
  std::vector<std::string> peer_rails;      // the peer's rail names (dev:port), matrix order
  Deadline lat_end, end;
};

void rdma_client(NetCell& c, TcpSocket& s, const RdmaPairPlan& p, const NetOptions& opt);
void rdma_server(NetCell& c, TcpSocket& s, const RdmaPairPlan& p, const NetOptions& opt);

// The cell's figures from its rails: the slowest rail's bandwidth, the worst rail's latency.
void summarise_rails(NetCell& c);

}  // namespace ncdx::measure
