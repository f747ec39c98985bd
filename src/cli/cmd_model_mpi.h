#pragma once
// `ncdx model --backend mpi`: the α-β-γ time of Open MPI's coll_tuned algorithms
// (model/tune/ompi_alphabeta.h) on links of a given latency and bandwidth.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/command.h"

namespace ncdx::cli {

struct MpiModelOpts {
  int np = 0;
  double alpha_us = -1, beta_ns = -1, gamma_ns = 0;  // per message; per byte on the wire; per byte reduced
  double beta_x_ns = 0;  // per byte of a rendezvous-sized two-way exchange (model::tune::Link); 0 = beta_ns
  std::string colls, algos;                           // comma-separated; empty = every modelled one
};

int run_model_mpi(const MpiModelOpts& o, const std::vector<std::uint64_t>& sizes, const GlobalOptions& g);

}  // namespace ncdx::cli
