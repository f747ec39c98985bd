#pragma once
// The few collective operations cluster mode needs (gather of JSON snapshots, broadcast of the
// verdict, barriers between matrix rounds, clock offsets), behind one interface so the analysis
// runs the same under MPI and in a single process (tests, --plan). ncdx builds no transport of
// its own for this: under mpirun/srun it is MPI (docs/CLUSTER.md).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace ncdx::cluster {

class Comm {
 public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual std::string launcher() const = 0;  // "mpi", "single"
  virtual void barrier() = 0;
  // Every rank's `mine`, in rank order, on root 0; an empty vector on the other ranks.
  virtual std::vector<std::string> gather(const std::string& mine) = 0;
  // Every rank's `mine` on every rank.
  virtual std::vector<std::string> allgather(const std::string& mine) = 0;
  // Root 0's `value` on every rank.
  virtual std::string bcast(const std::string& value) = 0;
  // On root 0: each rank's wall clock minus root's, in microseconds (NTP-style midpoint of one
  // round trip, best of a few), null where it could not be estimated. Empty on other ranks.
  virtual std::vector<std::optional<double>> clock_offsets_us() = 0;
};

// One process, rank 0 of 1.
std::unique_ptr<Comm> single_comm();
// true when this binary was built with NCDX_WITH_MPI.
bool mpi_built();
// MPI_Init and MPI_COMM_WORLD; usage error (exit 64) with the reason when built without MPI.
core::Result<std::unique_ptr<Comm>> open_mpi_comm();

}  // namespace ncdx::cluster
