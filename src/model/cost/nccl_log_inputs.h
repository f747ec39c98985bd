#pragma once
// What an NCCL_DEBUG=INFO log (NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING,ENV) says about the cost
// model's inputs and NCCL's own choices, for `ncdx model --nccl-log` and the validation:
//   "NCCL version 2.26.2+cuda12.4"
//   "comm 0x... rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0"
//   "Pattern 4, crossNic 0, nChannels 8, bw 48.000000/48.000000, type NVL/PXB, sameChannels 1"
//   "threadThresholds 8/8/64 | 128/8/64 | 512 | 512"
//   "32 coll channels, 32 collnet channels, 16 nvls channels, 32 p2p channels, ..."
//   "Channel 00/16 : 0 7 6 ..."
//   "NCCL_ALGO set by environment to RING", the "Enabled NCCL Func/Proto/Algo Matrix" table
//   TUNING tables: "AllReduce |    6.8/ 10.6 |   ..." (lat/bw per algo x proto)
// Only rank 0's lines are used where ranks disagree (NCCL prints the tables on rank 0).
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/cost/graph.h"
#include "model/cost/types.h"

namespace ncdx::model::cost {

struct LoggedTuning {            // one function row of the TUNING table
  Collective coll = Collective::AllReduce;
  std::vector<std::pair<double, double>> lat_bw;   // algo-major, proto-minor, as printed
  int first_algo = 0;            // the block's first algorithm index (tables print 3 algos per block)
};

struct NcclLogFacts {
  std::optional<NcclVersion> version;
  std::optional<int> nranks, nnodes, local_ranks;
  std::vector<Graph> patterns;   // in print order (ring, tree, collnet chain, collnet direct, nvls)
  std::optional<Graphs> graphs;  // patterns mapped to algorithms, when a ring pattern was seen
  std::optional<std::array<int, 5>> thread_thresholds;  // Tree LL/LL128/Simple, Ring LL, CollNet
  std::string thread_thresholds_text;
  std::optional<int> coll_channels, nvls_channels;
  std::optional<int> channel_count;     // NN of "Channel xx/NN"
  std::string nccl_algo, nccl_proto;    // "set by environment to"
  // Enabled matrix: [func][proto] and [func][algo] as printed (-1 = not printed).
  std::optional<std::array<std::array<int, 3>, 5>> enabled_proto;
  std::optional<std::array<std::array<int, 7>, 5>> enabled_algo;
  std::vector<LoggedTuning> tuning;
  int lines = 0;
};

NcclLogFacts read_nccl_log(std::string_view text);

}  // namespace ncdx::model::cost
