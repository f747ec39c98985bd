// SimplePattern must give exactly RE2's result (match or not, and every group) on the patterns it
// accepts: checked on every shipped pattern against real lines (all signature examples, the corpus
// logs, the NCCL INFO logs) plus edge cases around its greedy/leftmost reasoning.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include <fstream>

#include "core/strings.h"
#include "knowledge/signatures.h"
#include "knowledge/simple_pattern.h"
#include "support/test_paths.h"

namespace ncdx::knowledge {
namespace {

// Compares one pattern on one line; returns false (with a message) on any difference.
void expect_same(const std::string& pattern, const SimplePattern& sp, std::string_view line) {
  RE2 re(pattern);
  ASSERT_TRUE(re.ok()) << pattern;
  std::vector<re2::StringPiece> g(re.NumberOfCapturingGroups() + 1);
  const bool want = re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED, g.data(),
                             static_cast<int>(g.size()));
  std::vector<std::string_view> spans;
  const bool got = sp.match(line, spans);
  ASSERT_EQ(got, want) << pattern << "\n  on: " << line;
  if (!got) return;
  const auto& names = sp.group_names();
  for (const auto& [name, idx] : re.NamedCapturingGroups()) {
    auto it = std::find(names.begin(), names.end(), name);
    ASSERT_NE(it, names.end());
    EXPECT_EQ(spans[it - names.begin()], std::string_view(g[idx].data(), g[idx].size()))
        << pattern << " group " << name << "\n  on: " << line;
  }
}

std::vector<std::string> real_lines(const SignatureSet& set) {
  std::vector<std::string> lines;
  for (const auto& s : set.all()) lines.insert(lines.end(), s.examples.begin(), s.examples.end());
  for (const char* rel : {"/corpus/failures-dev.jsonl"}) {
    std::ifstream in(std::string(NCDX_TEST_DATA) + rel);
    for (std::string rec; std::getline(in, rec);)
      if (!rec.empty()) {
        const std::string log = nlohmann::json::parse(rec).at("log");
        for (auto l : core::split(log, '\n')) lines.emplace_back(l);
      }
  }
  std::ifstream info(std::string(NCDX_SHARED_DIR) + "/data/nccl_info_logs.jsonl");
  for (std::string rec; std::getline(info, rec);)
    if (!rec.empty()) {
      const std::string log = nlohmann::json::parse(rec).at("log_verbatim");
      for (auto l : core::split(log, '\n')) lines.emplace_back(l);
    }
  return lines;
}

TEST(SimplePattern, AgreesWithRe2OnShippedPatternsAndRealLines) {
  auto set = SignatureSet::load_embedded();
  ASSERT_TRUE(set.ok());
  if (!std::ifstream(std::string(NCDX_SHARED_DIR) + "/data/nccl_info_logs.jsonl"))
    GTEST_SKIP() << "shared data not present (its real NCCL INFO lines are most of the input): " << NCDX_SHARED_DIR;
  const auto lines = real_lines(set.value());
  ASSERT_GT(lines.size(), 1000u);
  int fast = 0;
  for (const auto& s : set->all())
    for (const auto& p : s.patterns) {
      auto sp = SimplePattern::compile(p);
      if (!sp) continue;
      ++fast;
      for (const auto& l : lines) expect_same(p, *sp, l);
    }
  EXPECT_GT(fast, 10);
}

TEST(SimplePattern, EdgeCases) {
  struct Case {
    const char* pattern;
    std::vector<const char*> lines;
  };
  const Case cases[] = {
      {"(?P<op>\\w+): opCount (?P<n>[0-9a-f]+)", {"x AllReduce: opCount 3f", "a:b: opCount 1", ": opCount 1", "ab: opCount ", "Q: opCount zz a: opCount 2"}},
      {"root (?P<root>-?\\d+) comm", {"root -1 comm", "root 12 comm", "root - comm", "root -x comm root 3 comm"}},
      {"rank (?P<r>\\d+) nranks", {"rank 1 nranks", "rank rank 2 nranks", "rank 1x nranks", "rank  nranks"}},
      {"ends (?P<tail>\\S+)", {"ends here and more", "ends ", "xends y"}},
      {"Got \\[(?P<b>[^\\]]+)\\]", {"Got [a b] c", "Got [] x Got [z]"}},
      {"\\S+ \\S+", {"a b c", " x", "ab  cd", "a b"}},
  };
  for (const auto& c : cases) {
    auto sp = SimplePattern::compile(c.pattern);
    ASSERT_TRUE(sp.has_value()) << c.pattern;
    for (const char* l : c.lines) expect_same(c.pattern, *sp, l);
  }
}

TEST(SimplePattern, RejectsWhatGreedyCannotDecide) {
  for (const char* p : {"a|b", "(?:x)?y", "\\w+\\d+", "\\d+1", "ab*", "(?i)abc", "x.y", "^abc", "a\\bc",
                        "-?\\d+ only", "(?P<a>\\w+)"})
    EXPECT_FALSE(SimplePattern::compile(p).has_value()) << p;
}

}  // namespace
}  // namespace ncdx::knowledge
