#pragma once
// One line per named network outlier ("lossy-node n3 (evidence); "), for the failure messages of
// the cluster isolation tests.
#include <string>
#include <vector>

#include "analyze/cluster/isolation.h"

namespace ncdx::testing {

inline std::string outlier_names(const std::vector<analyze::NetOutlier>& o) {
  std::string s;
  for (const auto& x : o) {
    s += x.kind;
    for (const auto& h : x.hosts) s += " " + h;
    s += " (" + x.evidence + "); ";
  }
  return s;
}

}  // namespace ncdx::testing
