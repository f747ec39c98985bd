// The triage fallback's word knowledge (knowledge/data/error_tokens.yaml): exception types speak
// before words, level labels and quiet labels are no evidence, and a malformed section names its line.
#include <gtest/gtest.h>

#include "knowledge/error_tokens.h"

using namespace ncdx::knowledge;

TEST(ErrorTokens, ExceptionTypeBeforeWords) {
  EXPECT_EQ(exception_type_class("RuntimeError"), "");            // generic: the words decide
  EXPECT_EQ(exception_type_class("DistStoreError"), "");
  EXPECT_EQ(exception_type_class("ConnectionResetError"), "network-socket");
  EXPECT_EQ(exception_type_class("MemoryError"), "oom");
  EXPECT_EQ(exception_type_class("FileNotFoundError"), "other");  // the application's own error
  EXPECT_EQ(exception_type_class("ValueError"), "other");
}

TEST(ErrorTokens, ShippedLabelsAndQuiet) {
  const auto& t = error_tokens();
  auto has = [](const std::vector<std::string>& v, const char* s) { return std::find(v.begin(), v.end(), s) != v.end(); };
  EXPECT_TRUE(has(t.labels, " - error - "));
  EXPECT_TRUE(has(t.quiet, "nccl info"));
  EXPECT_EQ(family_class("read error: connection reset by peer (socket)"), "network-socket");
}

TEST(ErrorTokens, MalformedSectionsNameTheirLine) {
  const std::string base = "evidence:\n  - {token: error, weight: 3}\nfamilies:\n  - {class: oom, tokens: [oom]}\n";
  auto bad = parse_error_tokens(base + "exceptions:\n  by_words: [RuntimeError]\n  by_type: {MemoryError: ram}\n", "t.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("t.yaml:6"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("unknown class 'ram'"), std::string::npos);
  auto labels = parse_error_tokens(base + "labels: 3\n", "t.yaml");
  ASSERT_FALSE(labels.ok());
  EXPECT_NE(labels.status().message().find("'labels' is a list"), std::string::npos);
  auto ok = parse_error_tokens(base + "labels: [' - error - ']\n", "t.yaml");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->labels.size(), 1u);
}
