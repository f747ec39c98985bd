// ib.roce_gid's advice follows the NCCL on the node: before 2.21 NCCL needs NCCL_IB_GID_INDEX set,
// from 2.21 it selects the RoCE v2 GID itself and the lint calls a set index wrong advice.
#include <gtest/gtest.h>

#include "analyze/doctor/checks.h"

using namespace ncdx;

namespace {

probe::Inventory roce_without_v2(const std::string& nccl) {
  probe::Inventory inv;
  probe::IbPort port;
  port.port = 1;
  port.link_layer = "Ethernet";
  port.gids.push_back({0, "fe80::1", "IB/RoCE v1", "ens1f0"});
  inv.ib.push_back({"mlx5_0", {}, {}, {}, {port}});
  probe::NcclLib lib;
  lib.path = "/usr/lib/libnccl.so.2";
  lib.version = nccl;
  inv.nccl_libs.push_back(lib);
  return inv;
}

}  // namespace

TEST(DoctorRoceGid, AdviceFollowsTheNodesNccl) {
  auto old_nccl = analyze::check_roce_gid(roce_without_v2("2.18.3"));
  EXPECT_EQ(old_nccl.status, core::Outcome::fail);
  EXPECT_NE(old_nccl.fix.find("set NCCL_IB_GID_INDEX="), std::string::npos) << old_nccl.fix;
  auto new_nccl = analyze::check_roce_gid(roce_without_v2("2.21.5"));
  EXPECT_EQ(new_nccl.status, core::Outcome::fail);
  EXPECT_NE(new_nccl.fix.find("leave NCCL_IB_GID_INDEX unset"), std::string::npos) << new_nccl.fix;
  EXPECT_EQ(new_nccl.fix.find("NCCL_IB_GID_INDEX="), std::string::npos) << "no index to set on NCCL >= 2.21";
}
