// The harness of a run that is one process (NCCL driving every local GPU, or tests).
#include <cstring>

#include "measure/collective/backend.h"

namespace ncdx::measure {

namespace {

class SingleHarness final : public Harness {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  double sum(double v) override { return v; }
  double min(double v) override { return v; }
  double max(double v) override { return v; }
  double bcast0(double v) override { return v; }
  std::vector<double> gather0(const std::vector<double>& mine) override { return mine; }
  std::vector<std::string> gather0(const std::string& mine) override { return {mine}; }
  void bcast_bytes(void*, std::size_t) override {}
  double clock_offset_us() override { return 0; }
  std::string launcher() const override { return "single"; }
};

}  // namespace

std::unique_ptr<Harness> single_harness() { return std::make_unique<SingleHarness>(); }

}  // namespace ncdx::measure
