// ncdx compat over rooted fixture trees (tests/data/compat/, SOURCES.md there) and flag inputs.
#include <gtest/gtest.h>

#include "analyze/compat/compat.h"
#include "probe/package_versions.h"
#include "support/test_paths.h"

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
  // torch 2.11.0's wheel pins its CUDA through cuda-toolkit's extras (compat_pins.tsv).
  auto t = probe::parse_metadata(
      "Name: torch\nVersion: 2.11.0\nRequires-Dist: cuda-toolkit[cublas,cudart,nvtx]==13.0.2; platform_system == \"Linux\"\n"
      "Requires-Dist: nvidia-nccl-cu13==2.28.9; platform_system == \"Linux\"\n",
      "/x");
  EXPECT_EQ(t.pins.at("cuda-toolkit"), "13.0.2");
  EXPECT_EQ(t.pins.at("nvidia-nccl-cu13"), "2.28.9");
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

// The engines' own torch pins (compat_pins.tsv, from PyPI metadata): vllm 0.8.5 requires
// torch==2.6.0, vllm 0.10.2 torch==2.8.0; SGLang 0.4.6.post5 pins torch==2.6.0 in its srt extra.
TEST(Compat, EngineTorchPinsFromReleaseMetadata) {
  analyze::CompatInput in;
  in.torch = "2.6.0";
  in.vllm = "0.8.5";
  auto r = analyze::check_compat(in);
  ASSERT_NE(row(r, "vllm-torch"), nullptr) << dump(r);
  EXPECT_EQ(row(r, "vllm-torch")->status, core::Outcome::pass);
  EXPECT_EQ(row(r, "vllm-torch")->source, "PyPI vllm 0.8.5 metadata: Requires-Dist torch==2.6.0");
  in.torch = "2.8.0+cu128";
  auto w = analyze::check_compat(in);
  const auto* x = row(w, "vllm-torch");
  ASSERT_NE(x, nullptr) << dump(w);
  EXPECT_EQ(x->status, core::Outcome::warn);
  EXPECT_EQ(x->expected, "torch==2.6.0");
  EXPECT_EQ(x->fix, "pip install 'torch==2.6.0', or the vllm release built for this torch (vllm 0.10.2 … 0.11.0).");
  // Old sglang: the pin of the `srt` extra; sglang 0.5.4's cu130 build pins another torch.
  analyze::CompatInput g;
  g.torch = "2.6.0";
  g.sglang = "0.4.6.post5";
  EXPECT_EQ(row(analyze::check_compat(g), "sglang-torch")->status, core::Outcome::pass);
  g.sglang = "0.5.4";
  g.torch = "2.9.0";
  EXPECT_EQ(row(analyze::check_compat(g), "sglang-torch")->status, core::Outcome::pass);
  g.torch = "2.7.1";
  auto gw = analyze::check_compat(g);
  EXPECT_EQ(row(gw, "sglang-torch")->status, core::Outcome::warn) << dump(gw);
  EXPECT_EQ(row(gw, "sglang-torch")->expected, "torch==2.8.0");
  // A release the script does not list: SKIP, said so.
  g.sglang = "0.3.0";
  EXPECT_EQ(row(analyze::check_compat(g), "sglang-torch")->status, core::Outcome::skip);
}

// torch -> NCCL wheel from the generated table when no installed METADATA says it (flags).
TEST(Compat, TorchNcclPinFromReleaseMetadata) {
  analyze::CompatInput in;
  in.torch = "2.6.0";
  in.nccl = "2.21.5";
  auto r = analyze::check_compat(in);
  EXPECT_EQ(row(r, "torch-nccl")->status, core::Outcome::pass) << dump(r);
  EXPECT_EQ(row(r, "torch-nccl")->source,
            "PyPI torch 2.6.0 metadata: Requires-Dist nvidia-nccl-cu12==2.21.5; platform_system == \"Linux\" and "
            "platform_machine == \"x86_64\"");
  in.torch = "2.11.0";  // torch 2.11 moved to CUDA 13 wheels
  auto w = analyze::check_compat(in);
  EXPECT_EQ(row(w, "torch-nccl")->status, core::Outcome::warn) << dump(w);
  EXPECT_EQ(row(w, "torch-nccl")->expected, "NCCL 2.28.9");
  EXPECT_NE(row(w, "torch-nccl")->fix.find("nvidia-nccl-cu13==2.28.9"), std::string::npos);
  in.torch = "1.13.1";
  EXPECT_EQ(row(analyze::check_compat(in), "torch-nccl")->status, core::Outcome::skip);
}

// verl's extras from its own metadata. verl 0.7.1 requires vllm<=0.12.0,>=0.8.5 (the hand-copied
// table said <=0.12.0); verl 0.9.1 pins torch==2.11.0 in its vllm extra too.
TEST(Compat, VerlExtrasFromReleaseMetadata) {
  analyze::CompatInput in;
  in.verl = "0.7.1";
  in.vllm = "0.8.2";
  auto r = analyze::check_compat(in);
  EXPECT_EQ(row(r, "verl-vllm")->status, core::Outcome::warn) << dump(r);
  EXPECT_EQ(row(r, "verl-vllm")->expected, "vllm<=0.12.0,>=0.8.5");
  EXPECT_EQ(row(r, "verl-vllm")->source, "PyPI verl 0.7.1 metadata: Requires-Dist vllm<=0.12.0,>=0.8.5; extra == \"vllm\"");
  in.verl = "0.9.1";
  in.vllm = "0.24.0";
  in.torch = "2.11.0";
  auto n = analyze::check_compat(in);
  EXPECT_EQ(row(n, "verl-vllm")->status, core::Outcome::pass) << dump(n);
  EXPECT_EQ(row(n, "verl-vllm-torch")->status, core::Outcome::pass) << dump(n);
  EXPECT_EQ(row(n, "vllm-torch")->status, core::Outcome::pass) << dump(n);
  EXPECT_EQ(row(n, "verl-cuda"), nullptr);  // no install-doc facts for 0.9.1 in compat.yaml
  EXPECT_EQ(row(n, "verl-pins"), nullptr);
  in.verl = "0.3.0";  // PyPI has 0.3.0.post1 only: its pins apply
  in.vllm = "0.8.3";
  EXPECT_EQ(row(analyze::check_compat(in), "verl-vllm")->status, core::Outcome::warn);
  in.verl = "0.1";
  EXPECT_EQ(row(analyze::check_compat(in), "verl-pins")->status, core::Outcome::skip);
}

// A detected torch >= 2.11 (CUDA 13 wheels): its CUDA comes from the cuda-toolkit pin, its NCCL
// from nvidia-nccl-cu13 next to it.
TEST(Compat, Torch211Cuda13WheelsDetected) {
  const std::string site = "/usr/lib/python3.12/site-packages/";
  analyze::CompatInput in;
  in.detected.packages.push_back(probe::parse_metadata(
      "Name: torch\nVersion: 2.11.0\nRequires-Dist: cuda-toolkit[cublas,cudart]==13.0.2; platform_system == \"Linux\"\n"
      "Requires-Dist: nvidia-nccl-cu13==2.28.9; platform_system == \"Linux\"\n",
      site + "torch-2.11.0.dist-info"));
  in.detected.packages.push_back(probe::parse_metadata("Name: nvidia-nccl-cu13\nVersion: 2.28.9\n",
                                                       site + "nvidia_nccl_cu13-2.28.9.dist-info"));
  in.detected.packages.push_back(probe::parse_metadata("Name: vllm\nVersion: 0.20.0\n", site + "vllm-0.20.0.dist-info"));
  in.driver = "580.65.06";
  auto r = analyze::check_compat(in);
  const analyze::Component* tc = nullptr;
  for (const auto& c : r.components)
    if (c.name == "torch_cuda") tc = &c;
  ASSERT_NE(tc, nullptr);
  EXPECT_EQ(tc->version.value_or(""), "13.0");
  EXPECT_EQ(row(r, "driver-torch-cuda")->status, core::Outcome::pass) << dump(r);
  EXPECT_EQ(row(r, "torch-nccl")->status, core::Outcome::pass) << dump(r);
  EXPECT_EQ(row(r, "nccl-cuda-major"), nullptr) << dump(r);
  EXPECT_EQ(row(r, "vllm-torch")->status, core::Outcome::pass) << dump(r);  // vllm 0.20.0: torch==2.11.0
}
