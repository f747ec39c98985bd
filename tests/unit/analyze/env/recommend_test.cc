// Every block ncdx emits must pass its own lint, for every tier x fabric x version (env/recommend.h),
// and survive a round trip through the env-file reader in each output format.
#include <gtest/gtest.h>

#include "analyze/config/env_file.h"
#include "analyze/env/lint.h"
#include "analyze/env/recommend.h"
#include "report/env_render.h"

using namespace ncdx;

namespace {
std::string failures(const std::vector<analyze::EnvRow>& rows) {
  std::string s;
  for (const auto& r : rows)
    if (r.status != core::Outcome::pass) s += r.parameter + " " + core::to_string(r.status) + " " + r.rule + ": " + r.why + "\n";
  return s;
}
}  // namespace

TEST(EnvRecommend, EveryTierAndFabricPassesLint) {
  struct Shape { int nodes, gpus; };
  const Shape shapes[] = {{1, 1}, {1, 8}, {2, 8}, {3, 4}, {4, 8}, {16, 8}};
  const char* versions[] = {nullptr, "2.18.3", "2.20.5", "2.21.5", "2.23.4", "2.27.5", "2.30.7"};
  const char* torches[] = {nullptr, "2.1.2", "2.6.0"};
  int checked = 0;
  for (const auto& s : shapes)
    for (const auto& f : analyze::fabrics())
      for (const char* v : versions)
        for (const char* t : torches) {
          analyze::RecommendInput in{s.nodes, s.gpus, f, std::nullopt, std::nullopt};
          if (v) in.nccl = core::V(v);
          if (t) in.torch = core::V(t);
          auto recs = analyze::recommend_env(in);
          ASSERT_TRUE(recs.ok());
          analyze::EnvLintInput li;
          for (const auto& r : *recs)
            if (!r.name.empty()) li.env[r.name] = r.value;
          li.nccl = in.nccl;
          li.torch = in.torch;
          li.cluster = analyze::shape_of(in);
          auto rows = analyze::lint_env(li);
          EXPECT_EQ(core::worst_of(rows), core::Outcome::pass)
              << s.nodes << "x" << s.gpus << " " << f << " nccl " << (v ? v : "?") << " torch " << (t ? t : "?")
              << "\n" << failures(rows);
          ++checked;
        }
  EXPECT_EQ(checked, 6 * 7 * 7 * 3);
}

TEST(EnvRecommend, TiersAndFabricValidation) {
  EXPECT_EQ(analyze::scale_tier(8), "1-8 GPUs");
  EXPECT_EQ(analyze::scale_tier(9), "9-30 GPUs");
  EXPECT_EQ(analyze::scale_tier(31), "31+ GPUs");
  auto bad = analyze::recommend_env({2, 8, "token-ring", std::nullopt, std::nullopt});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), core::Exit::usage);
  // RoCE: a fixed GID index only where NCCL does not pick it itself.
  auto old = analyze::recommend_env({2, 8, "roce", core::V("2.20.5"), std::nullopt});
  auto neu = analyze::recommend_env({2, 8, "roce", core::V("2.21.5"), std::nullopt});
  auto has = [](const std::vector<analyze::EnvRec>& r, const char* n) {
    for (const auto& x : r) if (x.name == n) return true;
    return false;
  };
  EXPECT_TRUE(has(*old, "NCCL_IB_GID_INDEX"));
  EXPECT_FALSE(has(*neu, "NCCL_IB_GID_INDEX"));
  auto sock = analyze::recommend_env({4, 8, "socket", std::nullopt, std::nullopt});
  EXPECT_TRUE(has(*sock, "NCCL_SOCKET_NTHREADS"));
  EXPECT_TRUE(has(*sock, "NCCL_NSOCKS_PERTHREAD"));
  for (const auto& r : *sock) EXPECT_FALSE(r.reason.empty() || r.source.empty()) << r.name;
}

TEST(EnvRecommend, DebugBlockPassesLintInDebugMode) {
  for (const char* v : {"2.14.3", "2.18.3", "2.21.5", "2.26.2", "2.30.7"})
    for (const char* t : {"2.1.2", "2.4.0", "2.8.0"}) {
      auto recs = analyze::debug_env({core::V(v), core::V(t), {}, "/tmp"});
      ASSERT_TRUE(recs.ok());
      analyze::EnvLintInput li;
      for (const auto& r : *recs) if (!r.name.empty()) li.env[r.name] = r.value;
      li.nccl = core::V(v);
      li.torch = core::V(t);
      li.production = false;
      auto rows = analyze::lint_env(li);
      EXPECT_EQ(core::worst_of(rows), core::Outcome::pass) << v << " " << t << "\n" << failures(rows);
    }
  auto bad = analyze::debug_env({core::V("2.20.5"), std::nullopt, {"INIT", "RAS"}, "/tmp"});
  EXPECT_FALSE(bad.ok());  // RAS arrived in 2.24
}

TEST(EnvRecommend, ExportAndDotenvRoundTrip) {
  auto recs = analyze::debug_env({core::V("2.27.5"), core::V("2.8.0"), {}, "/tmp/my logs"});
  ASSERT_TRUE(recs.ok());
  for (const char* fmt : {"export", "dotenv"}) {
    auto text = report::render_block(*recs, fmt, {"header"});
    ASSERT_TRUE(text.ok());
    auto back = analyze::parse_env_file(*text, "out.env");
    ASSERT_TRUE(back.ok()) << back.status().message() << "\n" << *text;
    std::size_t n = 0;
    for (const auto& r : *recs)
      if (!r.name.empty()) {
        ASSERT_LT(n, back->size());
        EXPECT_EQ((*back)[n].name, r.name);
        EXPECT_EQ((*back)[n].value, r.value);
        ++n;
      }
    EXPECT_EQ(n, back->size());
  }
  EXPECT_FALSE(report::render_block(*recs, "toml", {}).ok());
}

TEST(EnvRecommend, IntraFabricFromTopology) {
  probe::TopoMatrix m;
  m.gpus.resize(2);
  m.reset_links();
  EXPECT_FALSE(analyze::intra_fabric_of(m));  // all unknown
  m.at(0, 1) = m.at(1, 0) = probe::Link{probe::LinkType::nvlink, 4};
  EXPECT_EQ(analyze::intra_fabric_of(m), "nvlink");
  m.at(0, 1) = m.at(1, 0) = probe::Link{probe::LinkType::pix, 0};
  EXPECT_EQ(analyze::intra_fabric_of(m), "pcie");
  probe::TopoMatrix big;
  big.gpus.resize(8);
  big.reset_links();
  for (std::size_t a = 0; a < 8; ++a)
    for (std::size_t b = 0; b < 8; ++b)
      if (a != b) big.at(a, b) = probe::Link{probe::LinkType::nvlink, 18};
  EXPECT_EQ(analyze::intra_fabric_of(big), "nvswitch");
  // An inter-node fabric plus the snapshot's intra fabric: both shape the lint.
  analyze::RecommendInput in{4, 8, "ib", std::nullopt, std::nullopt, std::string("nvswitch")};
  auto s = analyze::shape_of(in);
  EXPECT_EQ(s.intra, "nvswitch");
  EXPECT_EQ(s.inter, "ib");
}
