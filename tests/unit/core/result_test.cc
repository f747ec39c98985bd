#include "core/result.h"

#include <gtest/gtest.h>

using namespace ncdx::core;

namespace {
Result<int> parse_positive(int v) {
  if (v <= 0) return Status::bad_input("expected a positive number");
  return v;
}
Status check(int v) {
  NCDX_TRY(parse_positive(v), "reading run.sh:12");
  return Status::ok();
}
Result<int> doubled(int v) {
  int x = 0;
  NCDX_TRY_ASSIGN(x, parse_positive(v), "override 'a=" + std::to_string(v) + "'");
  return 2 * x;
}
Status outer(int v) {
  NCDX_TRY(check(v), "auditing");
  return Status::ok();
}
}  // namespace

TEST(Result, TryAddsContextAndKeepsTheCode) {
  EXPECT_TRUE(check(3).is_ok());
  Status s = check(-1);
  EXPECT_EQ(s.code(), Exit::bad_input);
  EXPECT_EQ(s.message(), "reading run.sh:12: expected a positive number");
  EXPECT_EQ(outer(-1).message(), "auditing: reading run.sh:12: expected a positive number");  // every level adds its breadcrumb
}

TEST(Result, TryAssignMovesTheValue) {
  auto r = doubled(21);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 42);
  auto bad = doubled(0);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "override 'a=0': expected a positive number");
}
