// Every case of the real-failure corpus (tests/data/corpus/failures-dev.jsonl, copied from
// shared/corpus/) is a test: the verdict class must equal the class its issue thread confirmed.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "support/triage_test_util.h"
#include "support/test_paths.h"

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

// Cases whose log alone does not carry the confirmed cause, each with why. They stay visible: the
// test fails if one of them starts passing (remove it from here then) and the confusion matrix
// counts them as misses. Fix signatures or correlation, never this list, to make a case pass.
const std::map<std::string, std::string> kKnownMisses = {
    {"mm-eureka-16", "a bare store-connect timeout; the version skew in the vLLM stack is not in the log"},
    {"nccl-340", "a custom NVLink query program's output after the fix (0 ms); nothing names a failure"},
};

class CorpusCase : public ::testing::TestWithParam<std::size_t> {};

TEST_P(CorpusCase, ClassMatchesLabel) {
  const auto& c = corpus()[GetParam()];
  auto r = ncdx::testing::triage_text(ncdx::testing::kPastedName, c.log);
  if (auto it = kKnownMisses.find(c.id); it != kKnownMisses.end()) {
    EXPECT_NE(r.verdict.klass, c.label) << c.id << " now passes: remove it from kKnownMisses";
    GTEST_SKIP() << "known miss: " << it->second << " (verdict " << r.verdict.klass << ")";
  }
  EXPECT_EQ(r.verdict.klass, c.label) << c.id << ": verdict " << r.verdict.id << " — " << r.verdict.title;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusCase, ::testing::Range<std::size_t>(0, load_corpus().size()),
                         [](const auto& info) { return ncdx::testing::param_name(corpus()[info.param].id); });

// Prints the confusion matrix (label → verdict) for the issue note, and holds the overall bar.
TEST(Corpus, ConfusionMatrix) {
  ncdx::testing::Confusion m;
  std::size_t right = 0;
  for (const auto& c : corpus()) {
    auto r = ncdx::testing::triage_text(ncdx::testing::kPastedName, c.log);
    ++m[c.label][r.verdict.klass];
    right += r.verdict.klass == c.label;
  }
  ncdx::testing::print_confusion("corpus", m, right, corpus().size());
  ASSERT_FALSE(corpus().empty());
  // The bar: every case but the known misses (each explained above).
  EXPECT_GE(right, corpus().size() - kKnownMisses.size()) << "corpus accuracy regressed";
}

}  // namespace
