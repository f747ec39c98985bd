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

TEST(WrapText, BreaksAtSpacesWithinTheWidth) {
  auto l = ncdx::core::wrap_text("no NVIDIA driver (and no NVIDIA GPU on PCI)", 16);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0], "no NVIDIA driver");
  EXPECT_EQ(l[1], "(and no NVIDIA");
  EXPECT_EQ(l[2], "GPU on PCI)");
  for (const auto& s : l) EXPECT_LE(ncdx::core::display_width(s), 16u);
}

TEST(WrapText, ZeroWidthOrFittingTextIsOneLine) {
  EXPECT_EQ(ncdx::core::wrap_text("a b c", 0), std::vector<std::string>{"a b c"});
  EXPECT_EQ(ncdx::core::wrap_text("a b c", 5), std::vector<std::string>{"a b c"});
  EXPECT_EQ(ncdx::core::wrap_text("", 5), std::vector<std::string>{""});
}

TEST(WrapText, CutsAWordWiderThanTheLineAtCodePoints) {
  // A path wider than the line, with a two-byte character: cut by columns, never inside the UTF-8.
  auto l = ncdx::core::wrap_text("/usr/local/§§§§/libnccl.so.2", 10);
  std::string joined;
  for (const auto& s : l) {
    EXPECT_LE(ncdx::core::display_width(s), 10u) << s;
    EXPECT_EQ(ncdx::core::sanitize_utf8(s), s) << "cut inside a UTF-8 sequence";
    joined += s;
  }
  EXPECT_EQ(joined, "/usr/local/§§§§/libnccl.so.2");
}

TEST(WrapText, CutsALongKeyAfterItsSeparators) {
  // A verl key or a path breaks after a dot or slash, not in the middle of a name.
  EXPECT_EQ(ncdx::core::wrap_text("actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu", 24),
            (std::vector<std::string>{"actor_rollout_ref.", "rollout.log_prob_micro_", "batch_size_per_gpu"}));
  EXPECT_EQ(ncdx::core::wrap_text("see /usr/lib/x86_64-linux-gnu/libnccl.so.2", 20),
            (std::vector<std::string>{"see", "/usr/lib/x86_64-", "linux-gnu/libnccl.", "so.2"}));
  // No separator in the last two thirds: cut at the width.
  EXPECT_EQ(ncdx::core::wrap_text("a.bcdefghijklmnop", 8), (std::vector<std::string>{"a.bcdefg", "hijklmno", "p"}));
}
