// The triage line bank (tests/data/triage/linebank.jsonl): short excerpts in the formats real tools
// print — NCCL WARN/INFO of several versions, PyTorch glog and tracebacks, CUDA runtime strings,
// Ray/torchrun/vLLM/SGLang lines, dmesg — each with the class of the root cause it names, and
// benign lines that must stay `none`. Every case runs through the real scan + correlate pipeline.
// It complements the corpus test: the corpus holds whole issues, the bank one message variant per
// case, so a hidden log that prints another version's wording still lands in the right class.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "support/triage_test_util.h"
#include "support/test_paths.h"

namespace {

struct Case {
  std::string id, klass, source, log;
};

std::vector<Case> load_bank() {
  std::vector<Case> out;
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/triage/linebank.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    out.push_back({j.at("id"), j.at("class"), j.at("source"), j.at("log")});
  }
  return out;
}

const std::vector<Case>& bank() {
  static auto b = load_bank();
  return b;
}

class LineBankCase : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LineBankCase, ClassMatches) {
  const auto& c = bank()[GetParam()];
  auto r = ncdx::testing::triage_text(ncdx::testing::kPastedName, c.log);
  EXPECT_EQ(r.verdict.klass, c.klass) << c.id << ": verdict " << r.verdict.id << " — " << r.verdict.title
                                      << "\n  source: " << c.source << "\n  log:\n" << c.log;
}

INSTANTIATE_TEST_SUITE_P(LineBank, LineBankCase, ::testing::Range<std::size_t>(0, load_bank().size()),
                         [](const auto& info) { return ncdx::testing::param_name(bank()[info.param].id); });

// The bank itself is well formed: unique ids, known classes, a source for each, every class
// represented (a bank without benign cases could not catch false alarms).
TEST(LineBank, WellFormed) {
  const std::set<std::string> classes = {"timeout-hang", "cuda-hardware", "data-mismatch", "network-ib",
                                         "network-socket", "shm-ipc", "p2p-topology", "version-mismatch",
                                         "oom", "config-invalid", "other", "none"};
  std::set<std::string> ids, seen;
  for (const auto& c : bank()) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_TRUE(classes.count(c.klass)) << c.id << ": unknown class " << c.klass;
    EXPECT_FALSE(c.source.empty()) << c.id << ": no source";
    EXPECT_FALSE(c.log.empty()) << c.id << ": empty log";
    seen.insert(c.klass);
  }
  EXPECT_EQ(seen, classes) << "every failure class (and none) needs cases";
}

// Prints the confusion matrix (expected → verdict) and the misses, for the issue note.
TEST(LineBank, ConfusionMatrix) {
  ncdx::testing::Confusion m;
  std::vector<std::string> misses;
  for (const auto& c : bank()) {
    auto r = ncdx::testing::triage_text(ncdx::testing::kPastedName, c.log);
    ++m[c.klass][r.verdict.klass];
    if (r.verdict.klass != c.klass) misses.push_back(c.id + " (" + c.klass + " → " + r.verdict.klass + ")");
  }
  ncdx::testing::print_confusion("line bank", m, bank().size() - misses.size(), bank().size());
  for (const auto& s : misses) std::printf("  miss: %s\n", s.c_str());
  ASSERT_FALSE(bank().empty());
  EXPECT_TRUE(misses.empty());
}

}  // namespace
