// Version parsing/ordering and the canonical form of NCCL versions as PyTorch prints them.
#include <gtest/gtest.h>

#include "core/semver.h"

namespace ncdx::core {
namespace {

TEST(Semver, ParsesAndOrdersNumerically) {
  EXPECT_LT(V("2.9.9"), V("2.10.3"));
  EXPECT_EQ(V("2.24"), V("2.24.0"));
  auto v = Version::parse("v2.19.3-1");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->str(), "2.19.3");
  EXPECT_EQ(v->suffix, "-1");
  EXPECT_FALSE(Version::parse("banana"));
}

// PyTorch <= 1.10 decodes NCCL >= 2.9's version code with the old formula: 2.10.3 (21003) is
// printed "21.0.3", 2.11.4 (21104) "21.1.4".
TEST(Semver, CanonicalNcclVersionUndoesTheOldDecoding) {
  EXPECT_EQ(canonical_nccl_version("21.0.3"), "2.10.3");
  EXPECT_EQ(canonical_nccl_version("21.1.4"), "2.11.4");
  EXPECT_EQ(canonical_nccl_version("21.0.3+cuda11.3"), "2.10.3+cuda11.3");
  EXPECT_EQ(canonical_nccl_version("2.21.5"), "2.21.5");
  EXPECT_EQ(canonical_nccl_version("2.7.8"), "2.7.8");
  EXPECT_EQ(canonical_nccl_version("not a version"), "not a version");
}

}  // namespace
}  // namespace ncdx::core
