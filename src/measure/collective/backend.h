#pragma once
// The two halves of a collective benchmark backend.
//  - Harness: how the processes of one run talk to each other outside the measured collective
//    (barrier, reductions of timings, gathers to rank 0, clock offsets). MPI under mpirun, or a
//    single process.
//  - Engine: the library whose collective is measured (MPI's own collectives, or NCCL through
//    dlopen). One engine may drive several local ranks (NCCL ncclCommInitAll: one process, all
//    local GPUs); an MPI engine drives one.
// The runner (bench_run.h) is written against these interfaces only, so the nccl-tests loop,
// the data check and the statistics are the same code for every backend.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "measure/collective/collective.h"

namespace ncdx::measure {

class Harness {
 public:
  virtual ~Harness() = default;
  virtual int rank() const = 0;   // this process among the processes of the run
  virtual int size() const = 0;
  virtual void barrier() = 0;
  virtual double sum(double v) = 0;
  virtual double min(double v) = 0;
  virtual double max(double v) = 0;
  virtual double bcast0(double v) = 0;  // rank 0's value everywhere
  // Every process's vector concatenated in process order, on process 0 (empty elsewhere). All
  // vectors must have the same length.
  virtual std::vector<double> gather0(const std::vector<double>& mine) = 0;
  virtual std::vector<std::string> gather0(const std::string& mine) = 0;
  // Process 0's bytes on every process (NCCL's unique id).
  virtual void bcast_bytes(void* data, std::size_t n) = 0;
  // This process's clock minus process 0's, in microseconds (midpoint of the fastest of a few
  // round trips); 0 on process 0 and in a single process.
  virtual double clock_offset_us() = 0;
  virtual std::string launcher() const = 0;  // "mpi", "single"
};

// Which process-local buffers a call uses; offsets in elements, as nccl-tests' startColl.
struct CallArgs {
  Collective coll = Collective::allreduce;
  DataType type = DataType::float32;
  RedOp op = RedOp::sum;
  int root = 0;
  CollCounts counts;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;     // "mpi", "nccl"
  virtual std::string library() const = 0;  // "Open MPI v4.1.4", "NCCL 2.23.4 (/usr/lib/...)"
  virtual int nranks() const = 0;           // ranks of the communicator
  virtual int local_count() const = 0;      // ranks this process drives
  virtual int first_rank() const = 0;       // global rank of local rank 0
  // One "#  Rank ..." description per local rank: device (or -1), bus id text, device name.
  struct Device {
    int device = -1;
    std::string bus = "cpu", name;
  };
  virtual std::vector<Device> devices() const = 0;
  // Empty when the engine can run this type/op, else why not.
  virtual std::string unsupported(DataType t, RedOp o) const = 0;
  // Allocates (or grows) send and receive buffers of every local rank.
  virtual core::Status setup(std::size_t send_bytes, std::size_t recv_bytes) = 0;
  // Copies host bytes into a local rank's send or receive buffer at a byte offset.
  virtual core::Status write(int local, bool recv_buffer, std::size_t offset, const void* host, std::size_t n) = 0;
  // Copies the output of the last call of a local rank (where this library leaves it) to host.
  virtual core::Status read_output(int local, const CallArgs& a, bool in_place, void* host, std::size_t n) = 0;
  // Whether the last call leaves output on this local rank (reduce: the root only).
  virtual bool has_output(int local, const CallArgs& a) const;
  // Starts one call on every local rank; complete() waits for all started calls.
  virtual core::Status start(const CallArgs& a, bool in_place) = 0;
  virtual core::Status complete() = 0;
  // True when start() returns only after the call finished (MPI's blocking collectives).
  virtual bool synchronous() const = 0;
};

std::unique_ptr<Harness> single_harness();

// Built with NCDX_WITH_MPI: MPI_Init (once) and MPI_COMM_WORLD. Without it, a usage error.
bool mpi_built();
core::Result<std::unique_ptr<Harness>> mpi_harness();
core::Result<std::unique_ptr<Engine>> mpi_engine();

// NCCL through vendor/nccl_api.h. With a single-process harness: ncclCommInitAll over `ngpus`
// local GPUs (0 = all). With an MPI harness: one GPU per process (local rank % device count),
// ncclCommInitRank with the unique id broadcast by the harness.
core::Result<std::unique_ptr<Engine>> nccl_engine(Harness& h, int ngpus);
// NCCL over exactly these local devices of this process (doctor --cluster --nccl: all GPUs of
// every node, however many processes a node runs). Communicator ranks are numbered in process
// order; a process with no device takes part in the harness only. Collective over `h`.
// Why NCCL cannot run in this process ("" when it can): libnccl.so.2 or libcudart not loadable,
// or no CUDA device. `devices`: the device count when it can.
std::string nccl_unusable(int* devices = nullptr);
core::Result<std::unique_ptr<Engine>> nccl_engine_on(Harness& h, const std::vector<int>& devices);

}  // namespace ncdx::measure

namespace ncdx::measure {

struct Backend {
  std::unique_ptr<Harness> harness;
  std::unique_ptr<Engine> engine;
};
// "mpi", "nccl" or "auto" (nccl when libnccl and a GPU are usable, else mpi when built). NCCL
// runs under an MPI harness when the process was started by an MPI launcher of several ranks.
core::Result<Backend> open_backend(const std::string& name, int ngpus);

}  // namespace ncdx::measure
