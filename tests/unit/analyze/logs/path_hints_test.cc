#include <gtest/gtest.h>

#include "analyze/logs/log_line.h"

using ncdx::analyze::hints_from_path;

TEST(PathHints, RankNames) {
  EXPECT_EQ(hints_from_path("logs/rank3.log").rank, 3);
  EXPECT_EQ(hints_from_path("rank_3").rank, 3);
  EXPECT_EQ(hints_from_path("out/train_rank-07.txt.gz").rank, 7);
  EXPECT_EQ(hints_from_path("run/rank_12/stdout.log").rank, 12);
  EXPECT_FALSE(hints_from_path("ranking3.log").rank);
  EXPECT_FALSE(hints_from_path("rank3x.log").rank);
  EXPECT_FALSE(hints_from_path("train.log").rank);
}

TEST(PathHints, NcclDebugFile) {
  auto h = hints_from_path("/tmp/nccl.host1.1234.log");
  EXPECT_EQ(h.host, "host1");
  EXPECT_EQ(h.pid, 1234);
  auto d = hints_from_path("nccl.gpu-node-5.99");
  EXPECT_EQ(d.host, "gpu-node-5");
  EXPECT_EQ(d.pid, 99);
}

TEST(PathHints, RayWorker) {
  auto h = hints_from_path("/tmp/ray/session_2024-01-01_00-00-00_1/logs/worker-2e0d2c8a9f-01000000-835.err");
  EXPECT_EQ(h.pid, 835);
  EXPECT_EQ(hints_from_path("logs/worker-abc-12.out").pid, 12);
  EXPECT_FALSE(hints_from_path("logs/worker-abc.out").pid);
  EXPECT_EQ(hints_from_path("session_1/logs/python-core-worker-8f2a9c_4242.log").pid, 4242);
}

TEST(PathHints, Slurm) {
  auto h = hints_from_path("slurm-123.out");
  EXPECT_EQ(h.slurm_job, 123);
  EXPECT_FALSE(h.rank);
  auto t = hints_from_path("slurm-123_4.out");
  EXPECT_EQ(t.slurm_job, 123);
  EXPECT_EQ(t.rank, 4);
}

TEST(PathHints, TorchrunLogDir) {
  auto h = hints_from_path("/logs/none_abc123/attempt_0/3/stderr.log");
  EXPECT_EQ(h.local_rank, 3);
  EXPECT_FALSE(h.rank);
  EXPECT_FALSE(hints_from_path("/logs/x/3/stderr.log").local_rank);
}
