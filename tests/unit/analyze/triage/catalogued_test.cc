// triage.catalogued: a known NCCL/PyTorch text is the verdict, with its source, only where no
// signature names a cause; warning-level prints are not; a victim's socket text does not outrank
// the rank the launcher saw die first.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/triage_test_util.h"

namespace {
using ncdx::testing::triage_text;

TEST(Catalogued, NcclWarnNoSignatureKnowsIsCitedWithItsClass) {
  auto r = triage_text("rank0.log",
                       "gpu-node-01:1234:1250 [0] include/shm.h:36 NCCL WARN failure in mmap of /dev/shm/nccl-x (size 9637888) : No space left\n");
  EXPECT_EQ(r.verdict.id, "triage.catalogued");
  EXPECT_EQ(r.verdict.klass, "shm-ipc");
  ASSERT_FALSE(r.verdict.evidence.empty());
  EXPECT_NE(r.verdict.evidence.front().text.find("[NVIDIA/nccl src/include/shm.h:36, NCCL 2.3]"), std::string::npos)
      << r.verdict.evidence.front().text;
}

TEST(Catalogued, WarningLevelPrintsAreNoVerdict) {
  // vLLM's logger.warning texts are the library carrying on (a fallback), never a failure alone.
  auto r = triage_text("vllm.log",
                       "WARNING 12-02 04:17:08 [custom_all_reduce.py:1] Custom allreduce is disabled because it's not "
                       "supported on more than two PCIe-only GPUs. To silence this warning, specify "
                       "disable_custom_all_reduce=True explicitly.\n");
  EXPECT_EQ(r.verdict.klass, "none");
}

TEST(Catalogued, AVictimsSocketTextDoesNotOutrankTheRankThatFailedFirst) {
  // c10d's "Failed to send fd" (TORCH_CHECK, network-socket) no signature knows: alone it is the verdict.
  const std::string line = "[rank1]: RuntimeError: Failed to send fd: Broken pipe\n";
  auto alone = triage_text("console.log", line);
  EXPECT_EQ(alone.verdict.id, "triage.catalogued");
  EXPECT_EQ(alone.verdict.klass, "network-socket");
  // torchrun saw rank 0 fail first: rank 1 lost its peer, its socket text is no cause of its own.
  const std::string block =
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2026-12-02_04:17:08\n"
      "  host      : node0\n"
      "  rank      : 0 (local_rank: 0)\n"
      "  exitcode  : 1 (pid: 100)\n"
      "  error_file: <N/A>\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n";
  auto r = triage_text("console.log", line + block);
  EXPECT_NE(r.verdict.id, "triage.catalogued") << r.verdict.klass;
  EXPECT_EQ(r.verdict.culprit.ranks, std::vector<int>{0});
}

}  // namespace
