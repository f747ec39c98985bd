// Settings forced in the environment, read against the failure (triage/forced_env.cc). Lines are
// NCCL's and vLLM's real formats: NVIDIA/nccl src/misc/param.cc ("%s set by environment to %lld."),
// src/misc/ibvwrap.cc (wrap_ibv_modify_qp's WARN, ibvModifyQpLog, printIbModifyQpHint),
// src/transport/net_ib/init.cc ("NCCL_IB_HCA set to %s", "NET/IB : No device found."),
// src/misc/socket.cc; vLLM 0.8.5 vllm/utils.py find_nccl_library and
// vllm/distributed/device_communicators/pynccl_wrapper.py.
#include <gtest/gtest.h>

#include "support/triage_test_util.h"

namespace {

const std::string kModifyQpEinval =
    "n1:2345:2410 [0] misc/ibvwrap.cc:376 NCCL WARN Call to ibv_modify_qp failed with 22 Invalid argument, on dev "
    "mlx5_0:1, curr state INIT, next state RTR, local GID index 5, local GID ::ffff:10.0.0.1, remote GID "
    "::ffff:10.0.0.2\n"
    "n1:2345:2410 [0] NCCL INFO HINT: In many cases this error occurs when the incorrect GID index is forced by "
    "NCCL_IB_GID_INDEX\n"
    "n1:2345:2410 [0] NCCL INFO HINT: To confirm and fix the problem, you can set NCCL_IB_GID_INDEX=-1 to enable "
    "automatic detection.\n";

// The same EINVAL on a second node (n2, its own addresses).
std::string on_n2(std::string text) {
  for (std::size_t p = 0; (p = text.find("n1:2345:", p)) != std::string::npos; p += 2) text.replace(p, 2, "n2");
  for (std::size_t p = 0; (p = text.find("::ffff:10.0.0.1,", p)) != std::string::npos; ++p) text.replace(p + 14, 1, "3");
  return text;
}

TEST(ForcedEnv, GidIndexSetAndEinvalOnTwoNodesIsConfigInvalid) {
  auto r = ncdx::testing::triage_text("job.log", "n1:2345:2345 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 5.\n" +
                                                     kModifyQpEinval + on_n2(kModifyQpEinval));
  EXPECT_EQ(r.verdict.id, "triage.ib-env-invalid");
  EXPECT_EQ(r.verdict.klass, "config-invalid");
  EXPECT_EQ(r.verdict.culprit.component, "NCCL_IB_GID_INDEX=5");
}

TEST(ForcedEnv, GidIndexFromAnEnvDump) {
  auto r = ncdx::testing::triage_text("job.log", "NCCL_IB_GID_INDEX=5\n" + kModifyQpEinval + on_n2(kModifyQpEinval));
  EXPECT_EQ(r.verdict.klass, "config-invalid");
}

TEST(ForcedEnv, GidIndexSetAndEinvalOnOneNodeIsThatNode) {
  // One node's EINVAL under a cluster-wide index: as likely an empty GID entry of that node (its RoCE
  // netdev without its IPv4 address) as a wrong setting; the node's IB failure stays the verdict.
  auto r = ncdx::testing::triage_text(
      "job.log", "n1:2345:2345 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 5.\n" + kModifyQpEinval);
  EXPECT_EQ(r.verdict.klass, "network-ib") << r.verdict.id;
  EXPECT_NE(r.verdict.id, "triage.ib-env-invalid");
}

TEST(ForcedEnv, TheHintAloneIsNoEvidence) {
  // NCCL prints the GID hint after every EINVAL; with the variable unset the class stays network-ib.
  auto r = ncdx::testing::triage_text("job.log", kModifyQpEinval);
  EXPECT_EQ(r.verdict.klass, "network-ib") << r.verdict.id;
}

TEST(ForcedEnv, GidIndexSetButAnotherErrnoIsNotTheSetting) {
  auto r = ncdx::testing::triage_text(
      "job.log",
      "n1:2345:2345 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 3.\n"
      "n1:2345:2410 [0] misc/ibvwrap.cc:376 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on "
      "dev mlx5_0:1, curr state INIT, next state RTR, local GID index 3, local GID ::ffff:10.0.0.1, remote GID "
      "::ffff:10.0.0.2\n");
  EXPECT_EQ(r.verdict.klass, "network-ib");
}

TEST(ForcedEnv, AutomaticGidIndexIsNotForced) {
  auto r = ncdx::testing::triage_text(
      "job.log", "n1:2345:2345 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to -1.\n" + kModifyQpEinval);
  EXPECT_EQ(r.verdict.klass, "network-ib");
}

const std::string kSocketFailure =
    "n1:2345:2410 [0] misc/socket.cc:64 NCCL WARN socketProgress: Connection closed by remote peer n2<41512>\n";

TEST(ForcedEnv, HcaListMatchingNoDeviceThenANetworkFailure) {
  auto r = ncdx::testing::triage_text("job.log",
                                      "n1:2345:2345 [0] NCCL INFO NCCL_IB_HCA set to mlx5_9\n"
                                      "n1:2345:2345 [0] NCCL INFO NET/IB : No device found.\n" +
                                          kSocketFailure);
  EXPECT_EQ(r.verdict.id, "triage.ib-env-invalid");
  EXPECT_EQ(r.verdict.klass, "config-invalid");
  EXPECT_EQ(r.verdict.culprit.component, "NCCL_IB_HCA=mlx5_9");
}

TEST(ForcedEnv, NoDeviceWithoutHcaSetIsNotConfig) {
  auto r = ncdx::testing::triage_text("job.log", "n1:2345:2345 [0] NCCL INFO NET/IB : No device found.\n" + kSocketFailure);
  EXPECT_NE(r.verdict.klass, "config-invalid");
}

TEST(ForcedEnv, HcaListMatchingNoDeviceWithoutAFailureIsAnObservation) {
  auto r = ncdx::testing::triage_text("job.log",
                                      "n1:2345:2345 [0] NCCL INFO NCCL_IB_HCA set to mlx5_9\n"
                                      "n1:2345:2345 [0] NCCL INFO NET/IB : No device found.\n");
  EXPECT_NE(r.verdict.klass, "config-invalid");
  bool noted = false;
  for (const auto& f : r.findings) noted |= f.id == "triage.ib-env-invalid" && f.severity == ncdx::core::Severity::info;
  EXPECT_TRUE(noted);
}

const std::string kVllmLoad =
    "ERROR 05-01 10:22:38 pynccl_wrapper.py:387] Failed to load NCCL library from /opt/nccl/libnccl.so.2. It is "
    "expected if you are not running on NVIDIA/AMD GPUs.Otherwise, the nccl library might not exist, be corrupted or "
    "it does not support the current platform Linux-5.15.0-x86_64-with-glibc2.35. If you already have the library, "
    "please set the environment variable VLLM_NCCL_SO_PATH to point to the correct nccl library path.\n";

TEST(ForcedEnv, VllmLoadFailureWithTheirPathSetIsConfigInvalid) {
  auto r = ncdx::testing::triage_text(
      "vllm.log",
      "INFO 05-01 10:22:37 utils.py:1046] Found nccl from environment variable VLLM_NCCL_SO_PATH=/opt/nccl/libnccl.so.2\n" +
          kVllmLoad);
  EXPECT_EQ(r.verdict.id, "vllm.nccl-load-failed");
  EXPECT_EQ(r.verdict.klass, "config-invalid");
  EXPECT_EQ(r.verdict.culprit.component, "VLLM_NCCL_SO_PATH=/opt/nccl/libnccl.so.2");
}

TEST(ForcedEnv, VllmLoadFailureOfTorchsLibraryIsNotConfig) {
  auto r = ncdx::testing::triage_text(
      "vllm.log", "INFO 05-01 10:22:37 utils.py:1055] Found nccl from library libnccl.so.2\n" + kVllmLoad);
  EXPECT_EQ(r.verdict.id, "vllm.nccl-load-failed");
  EXPECT_EQ(r.verdict.klass, "version-mismatch");
}

}  // namespace
