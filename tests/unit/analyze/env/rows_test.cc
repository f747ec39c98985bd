#include "analyze/env/rows.h"

#include <gtest/gtest.h>

#include <string>

#include "analyze/env/lint.h"

using namespace ncdx;
using analyze::EnvRows;

TEST(EnvRows, SortsAndDropsPassRowsOfReportedParameters) {
  const std::string a = "NCCL_A", b = "NCCL_B", v = "1", f = "f.env";
  const analyze::EnvWhere o{&f, 2};
  EnvRows rows;
  rows.add(&b, &v, {}, core::Outcome::pass, "env.known", "", "", "fine", "tsv");
  rows.add(&a, &v, o, core::Outcome::pass, "env.known", "", "", "fine", "tsv");
  rows.add(&a, &v, o, core::Outcome::warn, "env.b-rule", "risk", "unset", "why", "tsv");
  rows.add(&a, &v, o, core::Outcome::fail, "env.a-rule", "risk", "unset", "why", "tsv");
  rows.finish();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].rule, "env.a-rule");
  EXPECT_EQ(rows[1].rule, "env.b-rule");
  EXPECT_EQ(rows[1].origin, "f.env:2");
  EXPECT_EQ(rows[2].parameter, "NCCL_B");  // its only row, PASS, stays
  EXPECT_EQ(rows[2].status, core::Outcome::pass);
  EXPECT_EQ(rows[2].origin, "");
  // A text repeated across rows is kept once.
  EXPECT_EQ(rows[0].why.data(), rows[1].why.data());
  EXPECT_EQ(rows[0].risk.data(), rows[1].risk.data());
}

TEST(EnvRows, LintRowsMatchTheRowVector) {
  analyze::EnvLintInput in;
  for (int i = 0; i < 200; ++i) in.env["NCCL_IB_HC" + std::to_string(i)] = "x";
  in.env["NCCL_DEBUG"] = "INFO";
  in.env["NCCL_IB_DISABLE"] = "1";
  in.origin.set("NCCL_DEBUG", "run.env", 3);
  auto vec = analyze::lint_env(in);
  auto rows = analyze::lint_env_rows(in);
  ASSERT_EQ(vec.size(), rows.size());
  for (std::size_t i = 0; i < vec.size(); ++i) EXPECT_EQ(analyze::to_json(vec[i]), analyze::to_json(rows[i])) << i;
}

TEST(EnvOrigins, CopiesAndMovesKeepTheirSources) {
  auto copy = [] {
    analyze::EnvOrigins o;
    o.set("NCCL_A", "run.env", 3);
    o.set("NCCL_B", "env");
    analyze::EnvOrigins c = o;  // the original dies here
    return c;
  }();
  EXPECT_EQ(copy.get("NCCL_A"), "run.env:3");
  EXPECT_EQ(copy.get("NCCL_B"), "env");
  copy.set("NCCL_C", "run.env", 9);  // found in the copy's own index
  analyze::EnvOrigins moved = std::move(copy);
  EXPECT_EQ(moved.get("NCCL_C"), "run.env:9");
  EXPECT_EQ(moved.get("NCCL_Z"), "");
}
