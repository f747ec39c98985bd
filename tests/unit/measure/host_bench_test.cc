// Host-side measurements run for real on this machine: /dev/shm and a temporary directory.
// No timed assertions: only that a number came back and is judged the documented way.
#include <gtest/gtest.h>

#include <filesystem>

#include "measure/checkpoint.h"
#include "measure/shm_bench.h"
#include "measure/storage_bench.h"
#include <unistd.h>  // getpid: a temp dir per test process

using namespace ncdx;
using namespace ncdx::measure;

TEST(ShmBench, MeasuresTmpfsAndLeavesNothingBehind) {
  core::FileSystem fs("/");
  if (!std::filesystem::exists("/dev/shm")) GTEST_SKIP() << "no /dev/shm on this machine";
  auto before = std::distance(std::filesystem::directory_iterator("/dev/shm"), std::filesystem::directory_iterator{});
  auto m = measure_shm_write(fs, {std::size_t{16} << 20, 2});
  ASSERT_TRUE(m.value) << m.detail;
  EXPECT_GT(*m.value, 0);
  EXPECT_EQ(m.status, core::Outcome::info);  // no expectation for host memory
  EXPECT_FALSE(m.expected);
  auto after = std::distance(std::filesystem::directory_iterator("/dev/shm"), std::filesystem::directory_iterator{});
  EXPECT_EQ(before, after);
}

TEST(ShmBench, ReplayedRootIsSkipped) {
  core::FileSystem fs(std::filesystem::temp_directory_path());
  auto m = measure_shm_write(fs);
  EXPECT_EQ(m.status, core::Outcome::skip);
  EXPECT_FALSE(m.value);
  EXPECT_NE(m.detail.find("--root"), std::string::npos);
}

TEST(StorageBench, WritesReadsAndCleansUp) {
  auto dir = std::filesystem::temp_directory_path() / ("ncdx_storage_test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto ms = measure_storage({dir.string(), std::size_t{8} << 20, std::size_t{1} << 20});
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms[0].id, "storage.write");
  ASSERT_TRUE(ms[0].value) << ms[0].detail;
  ASSERT_TRUE(ms[1].value) << ms[1].detail;
  EXPECT_NE(ms[0].detail.find("fsync"), std::string::npos);
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

TEST(StorageBench, MissingDirectoryIsSkippedWithReason) {
  auto ms = measure_storage({"/nonexistent/ncdx", 1 << 20, 1 << 20});
  ASSERT_EQ(ms.size(), 2u);
  EXPECT_EQ(ms[0].status, core::Outcome::skip);
  EXPECT_NE(ms[0].detail.find("/nonexistent/ncdx"), std::string::npos);
}

TEST(Checkpoint, EstimateAndTimeoutFinding) {
  // 70B params, mixed-precision Adam (14 B/param = 980 GB), 1 GB/s shared storage: 980 s > 600 s.
  CheckpointInput in;
  in.params = 70e9;
  in.write_gbps = 1.0;
  in.writers = 8;
  auto e = checkpoint_estimate(in);
  ASSERT_TRUE(e.ok());
  EXPECT_DOUBLE_EQ(e->bytes, 980e9);
  EXPECT_DOUBLE_EQ(e->seconds, 980.0);
  EXPECT_DOUBLE_EQ(e->per_writer_bytes, 122.5e9);
  auto f = checkpoint_timeout_finding(in, *e);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->klass, "timeout-hang");
  EXPECT_EQ(f->severity, core::Severity::error);
  EXPECT_EQ(checkpoint_measurement(in, *e).status, core::Outcome::fail);
  // The same writers on their own storage paths: 8 GB/s aggregate, 122.5 s, within the budget.
  in.shared_storage = false;
  auto p = checkpoint_estimate(in);
  ASSERT_TRUE(p.ok());
  EXPECT_DOUBLE_EQ(p->seconds, 122.5);
  EXPECT_FALSE(checkpoint_timeout_finding(in, *p));
  EXPECT_EQ(checkpoint_measurement(in, *p).status, core::Outcome::pass);
  in.timeout_s = 200;  // more than half the budget: warn
  EXPECT_EQ(checkpoint_measurement(in, *p).status, core::Outcome::warn);
}

TEST(Checkpoint, BadInputsAreUsageErrors) {
  CheckpointInput in;
  in.params = 7e9;
  EXPECT_EQ(checkpoint_estimate(in).status().code(), core::Exit::usage);  // no write rate
  in.write_gbps = 2;
  in.writers = 0;
  EXPECT_FALSE(checkpoint_estimate(in).ok());
  in.writers = 1;
  in.params = -1;
  EXPECT_FALSE(checkpoint_estimate(in).ok());
}
