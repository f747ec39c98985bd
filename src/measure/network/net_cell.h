#pragma once
// How a pair's measurement marks its cell failed; shared by the TCP and RDMA sides of the matrix.
#include <string>

#include "measure/network/net_matrix.h"

namespace ncdx::measure {

// The first failure of a cell wins: a later error of the same pair is a consequence of it.
inline void fail(NetCell& c, const std::string& status, const std::string& why) {
  if (c.status == "ok" || c.status == "not-run") {
    c.status = status;
    c.detail = why;
  }
}

// Every bounded wait of the matrix says "timed out" when its deadline passed (tcp_link.cc,
// rdma_link.cc); anything else is an error.
inline std::string status_for(const std::string& err) {
  return err.find("timed out") != std::string::npos ? "timeout" : "error";
}

}  // namespace ncdx::measure
