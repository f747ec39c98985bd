// ncdx compat over rooted fixture trees (tests/data/compat/, SOURCES.md there) and flag inputs.
#include <gtest/gtest.h>

#include "analyze/compat/compat.h"
#include "probe/package_versions.h"

using namespace ncdx;

namespace {
const analyze::CompatRow* row(const analyze::CompatReport& r, const std::string& check) {
  for (const auto& x : r.rows)
    if (x.check == check) return &x;
  return nullptr;
}
std::string dump(const analyze::CompatReport& r) {
  std::string s;
  for (const auto& x : r.rows) s += std::string(core::to_string(x.status)) + " " + x.check + " " + x.found + "\n";
  return s;
}
const std::string kData = NCDX_TEST_DATA;
}  // namespace

TEST(Compat, DriverVersionLines) {
  EXPECT_EQ(probe::parse_driver_version(
                "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"),
            "535.104.05");
  EXPECT_EQ(probe::parse_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  570.124.06  Release Build"),
            "570.124.06");
  EXPECT_FALSE(probe::parse_driver_version("garbage"));
}

TEST(Compat, Metadata) {
  auto p = probe::parse_metadata(
      "Metadata-Version: 2.1\nName: Torch\nVersion: 2.6.0+cu124\n"
      "Requires-Dist: nvidia-nccl-cu12 (==2.21.5) ; platform_system == \"Linux\"\n"
      "Requires-Dist: nvidia_cuda_runtime_cu12==12.8.90; platform_system == \"Linux\"\n"
      "Requires-Dist: filelock\nRequires-Dist: sympy>=1.13.3\n\nVersion: 9.9.9\n",
      "/x");
  EXPECT_EQ(p.name, "torch");
  EXPECT_EQ(p.version, "2.6.0+cu124");
  EXPECT_EQ(p.pins.at("nvidia-nccl-cu12"), "2.21.5");
  EXPECT_EQ(p.pins.at("nvidia-cuda-runtime-cu12"), "12.8.90");
  EXPECT_EQ(p.pins.count("sympy"), 0u);
}

TEST(Compat, Satisfies) {
  EXPECT_TRUE(analyze::satisfies("0.8.5", "<=0.8.5"));
  EXPECT_FALSE(analyze::satisfies("0.9.0", "<=0.8.5"));
  EXPECT_TRUE(analyze::satisfies("0.8.0", ">=0.7.3,<=0.8.5"));
  EXPECT_FALSE(analyze::satisfies("0.7.2", ">=0.7.3,<=0.8.5"));
  EXPECT_TRUE(analyze::satisfies("0.4.6.post5", "==0.4.6.post5"));
  EXPECT_FALSE(analyze::satisfies("0.4.6.post4", "==0.4.6.post5"));
  EXPECT_TRUE(analyze::satisfies("2.6.0+cu124", "==2.6.0"));
  EXPECT_FALSE(analyze::satisfies("x", "==2.6.0"));
}

TEST(Compat, H100Torch26Fixture) {
  core::FileSystem fs(kData + "/compat/h100-torch26");
  auto st = probe::detect_stack(fs, {});
  ASSERT_EQ(st.driver.size(), 1u);
  EXPECT_EQ(st.driver[0].version, "535.104.05");
  ASSERT_EQ(st.gpu_models.size(), 1u);
  EXPECT_EQ(st.gpu_models[0], "NVIDIA H100 80GB HBM3");
  analyze::CompatInput in;
  in.detected = st;
  auto r = analyze::check_compat(in);
  EXPECT_EQ(row(r, "driver-cuda")->status, core::Outcome::warn) << dump(r);  // 535 < 550.54.14 (CUDA 12.4 GA)
  EXPECT_EQ(row(r, "torch-nccl")->status, core::Outcome::pass) << dump(r);
  EXPECT_EQ(row(r, "verl-vllm")->status, core::Outcome::pass) << dump(r);
  EXPECT_EQ(row(r, "multiple-nccl")->status, core::Outcome::warn) << dump(r);
  EXPECT_EQ(row(r, "nccl-before-hopper-support"), nullptr) << dump(r);
  EXPECT_EQ(core::worst_of(r.rows), core::Outcome::warn);
}

TEST(Compat, OldNcclAndVenvFixture) {
  core::FileSystem fs(kData + "/compat/h100-old-nccl-venv");
  analyze::CompatInput in;
  in.detected = probe::detect_stack(fs, {"/opt/venv"});
  auto r = analyze::check_compat(in);
  EXPECT_EQ(row(r, "nccl-before-hopper-support")->status, core::Outcome::fail) << dump(r);
  EXPECT_EQ(row(r, "nccl-cuda-major")->status, core::Outcome::fail) << dump(r);
  EXPECT_EQ(row(r, "torch-nccl")->status, core::Outcome::warn) << dump(r);
  EXPECT_EQ(row(r, "driver-torch-cuda")->status, core::Outcome::pass) << dump(r);
  // Without the prefix the venv is not searched.
  analyze::CompatInput bare;
  bare.detected = probe::detect_stack(fs, {});
  auto b = analyze::check_compat(bare);
  EXPECT_EQ(row(b, "torch-nccl"), nullptr) << dump(b);
  EXPECT_NE(row(b, "nccl-before-hopper-support"), nullptr);
}

TEST(Compat, FlagsOverrideAndDriverTooOld) {
  analyze::CompatInput in;
  in.driver = "470.82.01";
  in.cuda = "12.4";
  in.verl = "0.6.1";
  in.vllm = "0.12.0";
  auto r = analyze::check_compat(in);
  EXPECT_EQ(row(r, "driver-cuda")->status, core::Outcome::fail) << dump(r);
  EXPECT_EQ(row(r, "verl-vllm")->status, core::Outcome::warn) << dump(r);
  in.vllm = "0.11.0";
  auto r2 = analyze::check_compat(in);
  EXPECT_EQ(row(r2, "verl-vllm")->status, core::Outcome::pass);
  EXPECT_EQ(row(r2, "vllm-0.11.0-symm-mem")->status, core::Outcome::warn);
}
