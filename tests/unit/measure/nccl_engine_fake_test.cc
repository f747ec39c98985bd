// The NCCL backend of `ncdx bench` through the real dlopen path, against the stand-in libcudart
// and libnccl of tests/measure/fake (2 host-memory "GPUs", NCCL's group semantics): every
// collective in and out of place with the data check. FakeCuda* run only under CTest's
// measure.fake_cuda, which loads the stand-ins; on a real GPU this is NcclBenchGpu (label gpu).
// What this cannot show: real NCCL's timings, streams and kernels (no GPU here).
#include <gtest/gtest.h>

#include <cstdlib>

#include "measure/collective/backend.h"
#include "measure/collective/bench_run.h"

using namespace ncdx::measure;

namespace {

void run_all(Backend& be) {
  for (auto c : all_collectives()) {
    BenchOptions o;
    o.coll = c;
    o.sizes = {1024, 65536};
    o.iters = 2;
    o.check = 1;
    o.root = 1;
    auto r = run_bench(*be.harness, *be.engine, o);
    ASSERT_TRUE(r.ok()) << name_of(c) << ": " << r.status().message();
    EXPECT_EQ(r->out_of_bounds, 0) << name_of(c);
    ASSERT_EQ(r->rows.size(), 2u);
    for (const auto& row : r->rows) {
      EXPECT_EQ(row.out_of_place.wrong, 0) << name_of(c) << " " << row.bytes;
      EXPECT_EQ(row.in_place.wrong, 0) << name_of(c) << " " << row.bytes;
      EXPECT_GT(row.out_of_place.time_us, 0);
    }
    EXPECT_EQ(r->ranks.size(), static_cast<std::size_t>(be.engine->nranks()));
  }
}

}  // namespace

TEST(FakeCuda, NcclBackendEveryCollectiveWithDataCheck) {
  if (!std::getenv("NCDX_FAKE_CUDA")) GTEST_SKIP() << "needs the stand-in libraries (ctest -R measure.fake_cuda)";
  auto be = open_backend("nccl", 0);
  ASSERT_TRUE(be.ok()) << be.status().message();
  EXPECT_EQ(be->engine->nranks(), 2);
  EXPECT_EQ(be->engine->local_count(), 2);
  EXPECT_EQ(be->harness->launcher(), "single");
  EXPECT_NE(be->engine->library().find("NCCL 2.30.7"), std::string::npos) << be->engine->library();
  run_all(*be);
  // half: the stand-in rejects it like an unsupported type -> an error, not a crash or a pass.
  BenchOptions o;
  o.type = DataType::half;
  o.sizes = {1024};
  auto r = run_bench(*be->harness, *be->engine, o);
  EXPECT_FALSE(r.ok());
}

TEST(FakeCuda, NcclBackendTooManyGpusIsAUsageError) {
  if (!std::getenv("NCDX_FAKE_CUDA")) GTEST_SKIP() << "needs the stand-in libraries";
  auto be = open_backend("nccl", 5);
  ASSERT_FALSE(be.ok());
  EXPECT_EQ(be.status().code(), ncdx::core::Exit::usage);
}

TEST(NcclBenchGpu, EveryCollectiveOrCleanSkip) {
  if (std::getenv("NCDX_FAKE_CUDA")) GTEST_SKIP() << "fake CUDA libraries loaded";
  auto be = open_backend("nccl", 0);
  if (!be.ok()) GTEST_SKIP() << "no NCCL/GPU here: " << be.status().message();
  run_all(*be);
}
