#include "cluster/mpi/comm.h"

#ifdef NCDX_WITH_MPI
// The C API only: mpi.h would otherwise pull in the deprecated C++ bindings, which need
// libmpi_cxx (not what MPI::MPI_C links).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#endif

namespace ncdx::cluster {

#ifdef NCDX_WITH_MPI
namespace {

double now_us() {
  using namespace std::chrono;
  return static_cast<double>(duration_cast<microseconds>(system_clock::now().time_since_epoch()).count());
}

class MpiComm final : public Comm {
 public:
  MpiComm() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiComm() override {
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin) MPI_Finalize();
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string launcher() const override { return "mpi"; }
  // A rank waiting here sleeps instead of spinning. MPI_Barrier busy-polls (Open MPI yields only
  // when it knows a host is oversubscribed, and one slot per node hides that): nodes that share
  // CPUs (namespace or container hosts on one machine) then burn the CPU that the pairs still
  // streaming need, and the confirmation pass, one pair at a time, would measure N−2 spinning
  // ranks. Polls at 50 µs doubling to 2 ms: a round waits at most ~2 ms longer.
  void barrier() override {
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    int done = 0;
    auto nap = std::chrono::microseconds(50);
    for (MPI_Test(&req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&req, &done, MPI_STATUS_IGNORE)) {
      std::this_thread::sleep_for(nap);
      nap = std::min(nap * 2, std::chrono::microseconds(2000));
    }
  }

  std::vector<std::string> gather(const std::string& mine) override { return gather_impl(mine, false); }
  std::vector<std::string> allgather(const std::string& mine) override { return gather_impl(mine, true); }

  std::string bcast(const std::string& value) override {
    long long n = rank_ == 0 ? static_cast<long long>(value.size()) : 0;
    MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    std::string out = rank_ == 0 ? value : std::string(static_cast<std::size_t>(n), '\0');
    if (n > 0) MPI_Bcast(out.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
    return out;
  }

  std::vector<std::optional<double>> clock_offsets_us() override {
    // Root pings each rank in turn; the rank answers with its clock. offset = t_remote − midpoint
    // of the round trip, from the round trip with the smallest delay (Cristian's algorithm).
    constexpr int kTries = 5;
    std::vector<std::optional<double>> out;
    if (rank_ == 0) out.assign(size_, std::nullopt);
    if (rank_ == 0) out[0] = 0.0;
    for (int r = 1; r < size_; ++r) {
      double best_rtt = 1e300, best_off = 0;
      for (int t = 0; t < kTries; ++t) {
        if (rank_ == 0) {
          double t0 = now_us(), remote = 0;
          char ping = 1;
          MPI_Send(&ping, 1, MPI_CHAR, r, 77, MPI_COMM_WORLD);
          MPI_Recv(&remote, 1, MPI_DOUBLE, r, 78, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          double t1 = now_us();
          if (t1 - t0 < best_rtt) {
            best_rtt = t1 - t0;
            best_off = remote - (t0 + t1) / 2;
          }
        } else if (rank_ == r) {
          char ping = 0;
          MPI_Recv(&ping, 1, MPI_CHAR, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          double t = now_us();
          MPI_Send(&t, 1, MPI_DOUBLE, 0, 78, MPI_COMM_WORLD);
        }
      }
      if (rank_ == 0) out[r] = best_off;
    }
    return out;
  }

 private:
  std::vector<std::string> gather_impl(const std::string& mine, bool all) {
    long long n = static_cast<long long>(mine.size());
    std::vector<long long> sizes(size_);
    if (all) MPI_Allgather(&n, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    else MPI_Gather(&n, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    std::vector<int> counts(size_), displs(size_);
    long long total = 0;
    for (int i = 0; i < size_; ++i) {
      counts[i] = static_cast<int>(sizes[i]);
      displs[i] = static_cast<int>(total);
      total += sizes[i];
    }
    bool have = all || rank_ == 0;
    std::string buf(have ? static_cast<std::size_t>(total) : 0, '\0');
    if (all)
      MPI_Allgatherv(mine.data(), static_cast<int>(n), MPI_CHAR, buf.data(), counts.data(), displs.data(), MPI_CHAR,
                     MPI_COMM_WORLD);
    else
      MPI_Gatherv(mine.data(), static_cast<int>(n), MPI_CHAR, buf.data(), counts.data(), displs.data(), MPI_CHAR, 0,
                  MPI_COMM_WORLD);
    std::vector<std::string> out;
    if (!have) return out;
    out.reserve(size_);
    for (int i = 0; i < size_; ++i) out.push_back(buf.substr(displs[i], counts[i]));
    return out;
  }

  int rank_ = 0, size_ = 1;
};
}  // namespace

bool mpi_built() { return true; }

core::Result<std::unique_ptr<Comm>> open_mpi_comm() {
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited && MPI_Init(nullptr, nullptr) != MPI_SUCCESS) return core::Status::internal("MPI_Init failed");
  return std::unique_ptr<Comm>(new MpiComm());
}
#else
bool mpi_built() { return false; }

core::Result<std::unique_ptr<Comm>> open_mpi_comm() {
  return core::Status::usage(
      "--cluster needs MPI, and this ncdx was built without it (reconfigure with libopenmpi-dev installed, "
      "-DNCDX_WITH_MPI=ON)");
}
#endif

}  // namespace ncdx::cluster
