#pragma once
// A search result (struct ncclTopoGraph's tuning fields) written out for model tests.
#include "model/cost/graph.h"

namespace ncdx::model::cost::testing {

inline Graph graph(int c, double bi, double be, PathType ti, PathType te, int pattern = 4) {
  Graph g;
  g.nchannels = c;
  g.bw_intra = bi;
  g.bw_inter = be;
  g.type_intra = ti;
  g.type_inter = te;
  g.pattern = pattern;
  return g;
}

}  // namespace ncdx::model::cost::testing
