#include "cluster/mpi/comm.h"

namespace ncdx::cluster {
namespace {
class SingleComm final : public Comm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string launcher() const override { return "single"; }
  void barrier() override {}
  std::vector<std::string> gather(const std::string& mine) override { return {mine}; }
  std::vector<std::string> allgather(const std::string& mine) override { return {mine}; }
  std::string bcast(const std::string& value) override { return value; }
  std::vector<std::optional<double>> clock_offsets_us() override { return {0.0}; }
};
}  // namespace

std::unique_ptr<Comm> single_comm() { return std::make_unique<SingleComm>(); }

}  // namespace ncdx::cluster
