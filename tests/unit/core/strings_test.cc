#include "core/strings.h"

#include <gtest/gtest.h>

using namespace ncdx::core;

TEST(Strings, SplitKeepsEmptyFields) {
  auto v = split("a,,b", ',');
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1], "");
  EXPECT_EQ(v[2], "b");
}

TEST(Strings, ParseIntRejectsJunk) {
  EXPECT_EQ(parse_int(" 42 "), 42);
  EXPECT_FALSE(parse_int("42x"));
  EXPECT_FALSE(parse_int(""));
}

TEST(Strings, ClosestSuggestsWithinDistance) {
  EXPECT_EQ(closest("triag", {"triage", "doctor"}), "triage");
  EXPECT_EQ(closest("zzzzzz", {"triage", "doctor"}), "");
}

TEST(Strings, SanitizeUtf8ReplacesInvalidBytes) {
  EXPECT_EQ(sanitize_utf8("ok\xff\xfe"), "ok??");
  EXPECT_EQ(sanitize_utf8("µs"), "µs");
}

TEST(Strings, HumanBytes) {
  EXPECT_EQ(human_bytes(64.0 * 1024 * 1024), "64 MiB");
  EXPECT_EQ(human_bytes(1.5 * 1024 * 1024 * 1024), "1.5 GiB");
}
