#pragma once
// An α-β-γ cost model of Open MPI's coll_tuned algorithms (the ones `ncdx tune --backend mpi`
// forces, knowledge/data/ompi_coll_tuned.tsv): the time of one collective on p ranks with one
// rank per host, every host on its own full-duplex link of latency α and inverse bandwidth β,
// and γ the time per byte of the local reduction.
//
// Model: Hockney's α + nβ per message (R. W. Hockney, "The communication challenge for MPP:
// Intel Paragon and Meiko CS-2", Parallel Computing 20(3), 1994) with the per-algorithm step
// counts of Thakur, Rabenseifner and Gropp, "Optimization of Collective Communication Operations
// in MPICH", IJHPCA 19(1), 2005, §2-§4 (https://doi.org/10.1177/1094342005051521), adapted
// where Open MPI's code does something else (coll_base_{allreduce,bcast,allgather}.c @ v4.1.4,
// cited per row in ompi_alphabeta.cc): its fallbacks for small counts and odd rank counts, and
// the concurrent isends of its tree broadcasts, which share the sender's link.
//
// bytes = nccl-tests' size column (per-rank buffer for allreduce and broadcast, the whole
// gathered buffer for allgather), as everywhere in `ncdx bench`.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "measure/collective/collective.h"

namespace ncdx::model::tune {

struct Link {
  double alpha_us = 0;   // per message, one way
  double beta_us = 0;    // per byte on the wire (1 / bandwidth)
  double gamma_us = 0;   // per byte reduced (MPI_SUM on the bench's type)
};

// time = alpha_steps·α + beta_bytes·β + gamma_bytes·γ, the critical path of one call.
struct AlphaBetaCost {
  std::string algorithm;   // the algorithm asked for
  std::string runs_as;     // what Open MPI runs (its fallback) when different, else empty
  double alpha_steps = 0;
  double beta_bytes = 0;
  double gamma_bytes = 0;
  double time_us(const Link& l) const { return alpha_steps * l.alpha_us + beta_bytes * l.beta_us + gamma_bytes * l.gamma_us; }
};

// The cost of Open MPI's coll_tuned algorithm `name` (the tsv's name) for collective `c` on
// `nranks` ranks at nccl-tests size `bytes` of elements of `elt` bytes; nullopt when the model
// has no row for it.
std::optional<AlphaBetaCost> ompi_alphabeta(measure::Collective c, const std::string& name, int nranks, std::size_t bytes,
                                            std::size_t elt = 4);

// The algorithms of collective `c` the model covers, in the tsv's order.
std::vector<std::string> ompi_alphabeta_algorithms(measure::Collective c);

}  // namespace ncdx::model::tune
