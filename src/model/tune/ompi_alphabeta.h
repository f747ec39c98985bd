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
// cited per row in ompi_alphabeta.cc): its fallbacks for small counts and odd rank counts, the
// concurrent isends of its tree broadcasts, which share the sender's link, and, per step, whether
// it is a one-way stream or a two-way exchange with one peer (Link).
//
// bytes = nccl-tests' size column (per-rank buffer for allreduce and broadcast, the whole
// gathered buffer for allgather), as everywhere in `ncdx bench`.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "measure/collective/collective.h"

namespace ncdx::model::tune {

// Two inverse bandwidths, because what a message pays per byte depends on the pattern of the
// step it belongs to (measured on htb-shaped namespace links, docs/MODEL.md (c)):
//  - beta_us: a one-way stream — a rank sends to one peer and receives from another (a ring
//    step) or only sends/receives (a tree or scatter step), and every eager-sized exchange;
//  - beta_x_us: a two-way exchange with one peer (ompi_coll_base_sendrecv to and from the same
//    rank) of a message above Open MPI's eager limit (kEagerLimitBytes): ob1's rendezvous
//    protocol. On the namespace links this ran at half the one-way rate, and at the one-way rate
//    again with btl_tcp_eager_limit raised to 4 MiB. 0 = beta_us (an ideal full-duplex link).
struct Link {
  double alpha_us = 0;   // per message, one way
  double beta_us = 0;    // per byte of a one-way stream (1 / bandwidth)
  double gamma_us = 0;   // per byte reduced (MPI_SUM on the bench's type)
  double beta_x_us = 0;  // per byte of a rendezvous-sized two-way exchange; 0 = beta_us
};

// btl tcp's eager limit (opal/mca/btl/tcp/btl_tcp_component.c @ v4.1.4: btl_eager_limit =
// 64*1024). ob1 sends eagerly when the message fits with its header
// (ompi/mca/pml/ob1/pml_ob1_sendreq.h: size <= btl_eager_limit - sizeof(mca_pml_ob1_hdr_t)),
// so 64 KiB itself already goes by rendezvous; the model's boundary is 64 KiB.
inline constexpr double kEagerLimitBytes = 64 * 1024;

// time = alpha_steps·α + beta_bytes·β + beta_x_bytes·β_x + gamma_bytes·γ, the critical path of one call.
struct AlphaBetaCost {
  std::string algorithm;   // the algorithm asked for
  std::string runs_as;     // what Open MPI runs (its fallback) when different, else empty
  double alpha_steps = 0;
  double beta_bytes = 0;    // bytes at the one-way rate
  double beta_x_bytes = 0;  // bytes of rendezvous-sized exchanges
  double gamma_bytes = 0;
  double time_us(const Link& l) const {
    return alpha_steps * l.alpha_us + beta_bytes * l.beta_us + beta_x_bytes * (l.beta_x_us > 0 ? l.beta_x_us : l.beta_us) +
           gamma_bytes * l.gamma_us;
  }
};

// The cost of Open MPI's coll_tuned algorithm `name` (the tsv's name) for collective `c` on
// `nranks` ranks at nccl-tests size `bytes` of elements of `elt` bytes; nullopt when the model
// has no row for it.
std::optional<AlphaBetaCost> ompi_alphabeta(measure::Collective c, const std::string& name, int nranks, std::size_t bytes,
                                            std::size_t elt = 4);

// The name of the algorithm Open MPI runs when `name` is forced with segment size `segsize` (0 =
// the default) at nccl-tests size `bytes`: `name` itself, or the algorithm of its silent fallback
// (the rows of ompi_alphabeta; for the segmented ring also a message below p segments, and one of
// a single phase, which sends exactly the ring's messages). Two configurations that run the same
// messages at a size are one configuration there (mpi_search.h).
std::string ompi_runs_as(measure::Collective c, const std::string& name, int nranks, std::size_t bytes, int segsize,
                         std::size_t elt = 4);

// The segment size a segmented bcast/reduce `name` really uses at `bytes`: 0 (no segmentation,
// Open MPI's default) when one segment covers the message, else `segsize`.
int ompi_effective_segsize(measure::Collective c, const std::string& name, std::size_t bytes, int segsize,
                           std::size_t elt = 4);

// The algorithms of collective `c` the model covers, in the tsv's order.
std::vector<std::string> ompi_alphabeta_algorithms(measure::Collective c);

}  // namespace ncdx::model::tune
