// The preflight gates of `doctor --expect-*` (analyze/doctor/expect.h).
#include <gtest/gtest.h>

#include "analyze/doctor/expect.h"

using namespace ncdx;

namespace {

probe::Inventory node(int gpus_on_pci, std::optional<int> nvml_gpus, int hcas) {
  probe::Inventory inv;
  for (int i = 0; i < gpus_on_pci; ++i) inv.pci_gpus.push_back({});
  inv.nvml.device_count = nvml_gpus;
  for (int i = 0; i < hcas; ++i) inv.ib.push_back({"mlx5_" + std::to_string(i), {}, {}, {}, {}});
  inv.nvml.driver_version = "550.54.15";
  probe::NcclLib lib;
  lib.path = "/usr/lib/libnccl.so.2";
  lib.version = "2.21.5";
  inv.nccl_libs.push_back(lib);
  return inv;
}

core::Outcome only(const std::vector<analyze::CheckOutcome>& o) {
  EXPECT_EQ(o.size(), 1u);
  return o.empty() ? core::Outcome::skip : o[0].result.status;
}

}  // namespace

TEST(DoctorExpect, VersionPrefixMatchesAtADotOnly) {
  EXPECT_TRUE(analyze::version_matches("550.54.15", "550"));
  EXPECT_TRUE(analyze::version_matches("550.54.15", "550.54.15"));
  EXPECT_TRUE(analyze::version_matches("2.21.5", "2.21"));
  EXPECT_FALSE(analyze::version_matches("2.21.5", "2.2"));
  EXPECT_FALSE(analyze::version_matches("5501.1", "550"));
  EXPECT_FALSE(analyze::version_matches("550", "550.54"));
  EXPECT_FALSE(analyze::version_matches("550.1", ""));
}

TEST(DoctorExpect, NothingExpectedRunsNoGate) {
  EXPECT_TRUE(analyze::expectation_checks(node(8, 8, 8), {}).empty());
}

TEST(DoctorExpect, GpuCountCountsPciAndNvml) {
  analyze::Expectations e;
  e.gpus = 8;
  EXPECT_EQ(only(analyze::expectation_checks(node(8, 8, 0), e)), core::Outcome::pass);
  EXPECT_EQ(only(analyze::expectation_checks(node(8, std::nullopt, 0), e)), core::Outcome::pass);
  EXPECT_EQ(only(analyze::expectation_checks(node(7, 7, 0), e)), core::Outcome::fail);  // fell off the bus
  EXPECT_EQ(only(analyze::expectation_checks(node(8, 7, 0), e)), core::Outcome::fail);  // on PCI, not in NVML
}

TEST(DoctorExpect, NicsDriverAndNccl) {
  analyze::Expectations e;
  e.nics = 8;
  EXPECT_EQ(only(analyze::expectation_checks(node(8, 8, 8), e)), core::Outcome::pass);
  EXPECT_EQ(only(analyze::expectation_checks(node(8, 8, 7), e)), core::Outcome::fail);
  analyze::Expectations d;
  d.driver = "550";
  EXPECT_EQ(only(analyze::expectation_checks(node(8, 8, 8), d)), core::Outcome::pass);
  d.driver = "535";
  EXPECT_EQ(only(analyze::expectation_checks(node(8, 8, 8), d)), core::Outcome::fail);
  analyze::Expectations n;
  n.nccl = "2.21.5";
  EXPECT_EQ(only(analyze::expectation_checks(node(8, 8, 8), n)), core::Outcome::pass);
  n.nccl = "2.18";
  auto o = analyze::expectation_checks(node(8, 8, 8), n);
  EXPECT_EQ(only(o), core::Outcome::fail);
  EXPECT_NE(o[0].result.evidence.find("2.21.5"), std::string::npos) << o[0].result.evidence;
}
