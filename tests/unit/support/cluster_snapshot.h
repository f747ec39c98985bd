#pragma once
// A healthy node's snapshot for the cluster tests (consistency rules, the cluster JSON): the same
// kernel, NCCL, CUDA, torch, MTU and env on every host, so a test changes only what it is about.
#include <string>

#include "analyze/cluster/consistency.h"

namespace ncdx::testing {

inline analyze::NodeSnapshot healthy_node(const std::string& host) {
  analyze::NodeSnapshot n;
  n.host = host;
  auto& inv = n.inventory;
  inv.os.hostname = host;
  inv.os.kernel = "6.1.0-18-amd64";
  inv.os.shm_size_bytes = 64ull << 30;
  inv.os.memlock.soft = "unlimited";
  inv.nccl_libs.push_back({"/usr/lib/libnccl.so.2", std::nullopt, "2.21.5", "ncclGetVersion", "system"});
  inv.cuda.runtime_version = 12040;
  inv.python.push_back({"torch", "2.4.0", "/usr/lib/python3/site-packages"});
  probe::NetIface eth;
  eth.name = "eth0";
  eth.operstate = "up";
  eth.mtu = 9000;
  eth.type = 1;
  inv.net.push_back(eth);
  inv.env["NCCL_IB_HCA"] = "mlx5";
  n.clock_offset_us = 100;
  return n;
}

}  // namespace ncdx::testing
