#pragma once
// How a pair's measurement marks its cell failed; shared by the TCP and RDMA sides of the matrix.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "measure/network/net_matrix.h"

namespace ncdx::measure {

// The q-quantile of samples, interpolated between the two nearest (0 for none): the TCP and
// the RDMA ping-pongs report their median and 99th percentile alike.
inline double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double pos = q * static_cast<double>(v.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(pos));
  auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

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
