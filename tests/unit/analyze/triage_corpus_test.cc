// Every case of the real-failure corpus (tests/data/corpus/failures-dev.jsonl, copied from
// shared/corpus/) is a test: the verdict class must equal the class its issue thread confirmed.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "triage_test_util.h"

namespace {

struct Case {
  std::string id, label, log;
};

std::vector<Case> load_corpus() {
  std::vector<Case> out;
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/corpus/failures-dev.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    out.push_back({j["id"], j["label_class"], j["log"]});
  }
  return out;
}

const std::vector<Case>& corpus() {
  static auto c = load_corpus();
  return c;
}

class CorpusCase : public ::testing::TestWithParam<std::size_t> {};

TEST_P(CorpusCase, ClassMatchesLabel) {
  const auto& c = corpus()[GetParam()];
  auto r = ncdx::testing::triage_text(c.id + ".log", c.log);
  EXPECT_EQ(r.verdict.klass, c.label) << c.id << ": verdict " << r.verdict.id << " — " << r.verdict.title;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusCase, ::testing::Range<std::size_t>(0, load_corpus().size()),
                         [](const auto& info) {
                           std::string n = corpus()[info.param].id;
                           for (auto& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// Prints the confusion matrix (label → verdict) for the issue note, and holds the overall bar.
TEST(Corpus, ConfusionMatrix) {
  std::map<std::string, std::map<std::string, int>> m;
  int right = 0;
  for (const auto& c : corpus()) {
    auto r = ncdx::testing::triage_text(c.id + ".log", c.log);
    ++m[c.label][r.verdict.klass];
    right += r.verdict.klass == c.label;
  }
  std::printf("corpus accuracy: %d/%zu\n", right, corpus().size());
  for (const auto& [label, row] : m) {
    std::printf("  %-18s", label.c_str());
    for (const auto& [got, n] : row) std::printf(" %s:%d", got.c_str(), n);
    std::printf("\n");
  }
  ASSERT_FALSE(corpus().empty());
  EXPECT_GE(right * 10, static_cast<int>(corpus().size()) * 9) << "corpus accuracy below 90%";
}

}  // namespace
