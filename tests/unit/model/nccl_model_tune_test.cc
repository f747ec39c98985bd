// `ncdx tune --model`'s decision (model/tune/nccl_model_tune.h, nccl_env_choice.h): buckets, NCCL's
// pick vs ncdx's best enabled entry, the gain threshold, the masks, the env file by replay.
// The calibrated case uses the scales `ncdx model --calibrate` fits on the real B200 run
// tests/data/model/judge/dstack-lambda-b200-2node.txt (bandwidth x1.009, latency x1.572) as inputs.
#include <gtest/gtest.h>

#include "model/cost/spec_parse.h"
#include "model/tune/nccl_model_tune.h"

using namespace ncdx;
using namespace ncdx::model;
using cost::Algo;
using cost::Collective;
using cost::Proto;

namespace {

cost::ClusterSpec b200() { return *cost::parse_spec("nodes=2,gpus=8,gpu=B200,nic=8x400G-IB"); }

tune::ModelTuneRequest calibrated_b200() {
  tune::ModelTuneRequest r;
  r.spec = b200();
  r.version = *cost::NcclVersion::parse("2.26.2");
  r.options.bw_scale = 1.009;
  r.options.lat_scale = 1.572;
  for (std::uint64_t s = 8; s <= (1ull << 30); s *= 2) r.sizes.push_back(s);
  return r;
}

using Bounds = std::pair<std::uint64_t, std::uint64_t>;

}  // namespace

TEST(ModelTune, BucketsTileTheSizesAtGeometricMidpoints) {
  const std::vector<std::uint64_t> s = {8, 16, 32};
  EXPECT_EQ(tune::bucket_bounds(s, 0), Bounds(8, 11));   // sqrt(128) = 11.3
  EXPECT_EQ(tune::bucket_bounds(s, 1), Bounds(12, 22));  // sqrt(512) = 22.6
  EXPECT_EQ(tune::bucket_bounds(s, 2), Bounds(23, 32));
  const std::vector<std::uint64_t> t = {1, 2, 3};
  EXPECT_EQ(tune::bucket_bounds(t, 0), Bounds(1, 1));
  EXPECT_EQ(tune::bucket_bounds(t, 1), Bounds(2, 2));
  EXPECT_EQ(tune::bucket_bounds(t, 2), Bounds(3, 3));
}

TEST(ModelTune, UncalibratedTheModelAgreesWithNcclAndWritesNothing) {
  auto req = calibrated_b200();
  req.options.bw_scale = req.options.lat_scale = 1.0;
  auto r = tune::tune_from_model(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->rules.empty());
  EXPECT_TRUE(r->env.empty());
  EXPECT_EQ(r->env_why, "no rules: nothing to set");
  for (const auto& b : r->buckets) {
    ASSERT_TRUE(b.nccl.available);
    EXPECT_EQ(b.best.algo, b.nccl.algo);
    EXPECT_EQ(b.best.proto, b.nccl.proto);
    EXPECT_FALSE(b.rule);
  }
}

TEST(ModelTune, CalibrationMovesTheCrossoverAndRulesBeatNcclsPickByTheThreshold) {
  auto req = calibrated_b200();
  auto r = tune::tune_from_model(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->rules.empty());
  cost::Options plain;
  auto nccl = cost::Model::build(req.spec, req.version, plain);
  ASSERT_TRUE(nccl.ok());
  int rules = 0;
  for (const auto& b : r->buckets) {
    // NCCL's pick is NCCL's own argmin (the uncalibrated model), whatever the calibration.
    auto own = nccl->predict(b.coll, b.bytes);
    EXPECT_EQ(b.nccl.algo, own.algo);
    EXPECT_EQ(b.nccl.proto, own.proto);
    EXPECT_DOUBLE_EQ(b.nccl.nccl_time_us, own.nccl_time_us);
    // ncdx's best is an entry NCCL's table enables, never faster-by-construction than itself.
    EXPECT_TRUE(nccl->predict_entry(b.coll, b.bytes, b.best.algo, b.best.proto).available);
    EXPECT_LE(b.best.time_us, b.nccl.time_us);
    if (b.rule) {
      ++rules;
      EXPECT_GE(b.gain, req.min_gain);
      EXPECT_GE(b.edge_gain, 0.0);
      EXPECT_FALSE(b.best.algo == b.nccl.algo && b.best.proto == b.nccl.proto);
    } else if (!(b.best.algo == b.nccl.algo && b.best.proto == b.nccl.proto)) {
      EXPECT_TRUE(b.gain < req.min_gain || b.edge_gain < 0) << b.why;
    }
  }
  // One rule per bucket here (no two adjacent buckets share an entry), for the real communicator.
  EXPECT_EQ(static_cast<int>(r->rules.size()), rules);
  for (const auto& x : r->rules) {
    EXPECT_EQ(x.nnodes, 2);
    EXPECT_EQ(x.nranks, 16);
    EXPECT_EQ(x.channels, -1);
  }
  // The crossover: at 1 MiB NCCL takes Ring LL128 for AllGather, the calibrated model Ring LL.
  bool found = false;
  for (const auto& b : r->buckets)
    if (b.coll == Collective::AllGather && b.bytes == (1u << 20)) {
      found = true;
      EXPECT_TRUE(b.rule);
      EXPECT_EQ(b.nccl.proto, Proto::LL128);
      EXPECT_EQ(b.best.proto, Proto::LL);
      EXPECT_NEAR(b.gain, 0.155, 0.01);
    }
  EXPECT_TRUE(found);
  // No single setting reproduces Ring LL at 1 MiB and LL128/Simple elsewhere.
  EXPECT_TRUE(r->env.empty());
  // A higher threshold than the gain: no rule.
  req.min_gain = 0.5;
  auto strict = tune::tune_from_model(req);
  ASSERT_TRUE(strict.ok());
  EXPECT_TRUE(strict->rules.empty());
}

TEST(ModelTune, MasksAreRespected) {
  auto req = calibrated_b200();
  req.options.nccl_proto = "^LL";  // the jobs run without LL
  auto r = tune::tune_from_model(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (const auto& b : r->buckets) {
    EXPECT_NE(b.best.proto, Proto::LL) << b.why;
    EXPECT_NE(b.nccl.proto, Proto::LL);
  }
  req.options.nccl_proto.clear();
  req.options.nccl_algo = "Ring";
  r = tune::tune_from_model(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  for (const auto& b : r->buckets)
    if (b.nccl.available) EXPECT_EQ(b.best.algo, Algo::Ring);
  EXPECT_TRUE(r->env.empty());  // the user's NCCL_ALGO stays theirs
}

TEST(ModelTune, EnvFileOnlyWhereOneReplayedSettingWinsEverywhere) {
  auto req = calibrated_b200();
  req.collectives = {Collective::AllGather};
  req.sizes = {1u << 20};
  auto r = tune::tune_from_model(req);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->rules.size(), 1u);
  ASSERT_EQ(r->env.size(), 1u);
  // NCCL_ALGO=AllGather:Ring leaves NCCL on Ring LL128; NCCL_PROTO=AllGather:LL gives Ring LL.
  EXPECT_EQ(r->env[0].name, "NCCL_PROTO");
  EXPECT_EQ(r->env[0].value, "AllGather:LL");
  // Replayed independently: NCCL with that setting picks the rule's entry.
  cost::Options o;
  o.nccl_proto = r->env[0].value;
  auto m = cost::Model::build(req.spec, req.version, o);
  ASSERT_TRUE(m.ok());
  auto p = m->predict(Collective::AllGather, 1u << 20);
  EXPECT_EQ(p.algo, Algo::Ring);
  EXPECT_EQ(p.proto, Proto::LL);
}

TEST(ModelTune, BadRequestsAreUsageErrors) {
  auto req = calibrated_b200();
  req.sizes = {16, 8};
  EXPECT_EQ(tune::tune_from_model(req).status().code(), core::Exit::usage);
  req = calibrated_b200();
  req.collectives = {Collective::AllToAll};
  EXPECT_EQ(tune::tune_from_model(req).status().code(), core::Exit::usage);
  req = calibrated_b200();
  req.spec.nodes = 0;
  EXPECT_EQ(tune::tune_from_model(req).status().code(), core::Exit::bad_input);
}
