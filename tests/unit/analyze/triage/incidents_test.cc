// The incident bank (tests/data/triage/incidents/*.jsonl): whole failure reports as users paste them
// into public issues — several tools' output mixed, tracebacks, noise, the excerpt the reporter
// chose — each labelled with the cause its thread confirmed, in the corpus's format and conventions.
// The corpus (43 cases) is too small to show whether triage generalises; the line bank tests one
// message variant per case; this bank tests the correlation: which of several findings in a real
// report is the root cause. Cases whose log does not carry their confirmed cause say why in
// `known_miss`; the test fails if one starts passing (drop the field then).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <set>

#include "core/strings.h"

#include "support/triage_test_util.h"
#include "support/test_paths.h"

namespace {

struct Case {
  std::string file, id, label, source, log, known_miss;
  // `culprit` {ranks, hosts} where the thread names the rank/host at fault (holdout4 onwards), and
  // `culprit_miss`: why the log cannot give it (the test then expects it not named).
  std::set<int> culprit_ranks;
  std::set<std::string> culprit_hosts;
  std::string culprit_miss;
};

std::vector<Case> load_bank() {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(std::string(NCDX_TEST_DATA) + "/triage/incidents"))
    if (e.path().extension() == ".jsonl") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Case> out;
  for (const auto& p : files) {
    std::ifstream in(p);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto j = nlohmann::json::parse(line);
      Case c{p.filename().string(), j.at("id"), j.at("label_class"), j.at("source"), j.at("log"),
             j.value("known_miss", "")};
      if (auto cu = j.find("culprit"); cu != j.end() && cu->is_object()) {
        for (int r : cu->value("ranks", std::vector<int>{})) c.culprit_ranks.insert(r);
        for (const auto& h : cu->value("hosts", std::vector<std::string>{})) c.culprit_hosts.insert(h);
      }
      c.culprit_miss = j.value("culprit_miss", "");
      out.push_back(std::move(c));
    }
  }
  return out;
}

const std::vector<Case>& bank() {
  static auto b = load_bank();
  return b;
}

class IncidentCase : public ::testing::TestWithParam<std::size_t> {};

TEST_P(IncidentCase, ClassMatchesLabel) {
  const auto& c = bank()[GetParam()];
  auto r = ncdx::testing::triage_text(ncdx::testing::kPastedName, c.log);
  if (!c.known_miss.empty()) {
    EXPECT_NE(r.verdict.klass, c.label) << c.id << " now passes: drop its known_miss";
    GTEST_SKIP() << "known miss: " << c.known_miss << " (verdict " << r.verdict.klass << ")";
  }
  EXPECT_EQ(r.verdict.klass, c.label) << c.id << " (" << c.file << "): verdict " << r.verdict.id << " — "
                                      << r.verdict.title << "\n  source: " << c.source;
  if (c.culprit_ranks.empty() && c.culprit_hosts.empty()) return;
  // Every labelled rank and host must be among the verdict's culprits.
  const std::set<int> got_ranks(r.verdict.culprit.ranks.begin(), r.verdict.culprit.ranks.end());
  const std::set<std::string> got_hosts(r.verdict.culprit.hosts.begin(), r.verdict.culprit.hosts.end());
  const bool named = std::includes(got_ranks.begin(), got_ranks.end(), c.culprit_ranks.begin(), c.culprit_ranks.end()) &&
                     std::includes(got_hosts.begin(), got_hosts.end(), c.culprit_hosts.begin(), c.culprit_hosts.end());
  if (!c.culprit_miss.empty()) {
    EXPECT_FALSE(named) << c.id << " now names its culprit: drop its culprit_miss";
    return;
  }
  std::string ranks;
  for (int x : r.verdict.culprit.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(x);
  EXPECT_TRUE(named) << c.id << ": verdict " << r.verdict.id << " names ranks [" << ranks << "] hosts ["
                     << ncdx::core::join(r.verdict.culprit.hosts, ",") << "]";
}

// A checkout may hold only the README (the bank grows per file).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(IncidentCase);
INSTANTIATE_TEST_SUITE_P(Incidents, IncidentCase, ::testing::Range<std::size_t>(0, load_bank().size()),
                         [](const auto& info) {
                           // A duplicate id would abort the whole binary here; suffix it so that
                           // WellFormed reports it by name instead.
                           const auto& id = bank()[info.param].id;
                           bool dup = false;
                           for (std::size_t i = 0; i < info.param; ++i) dup |= bank()[i].id == id;
                           return ncdx::testing::param_name(dup ? id + "_" + std::to_string(info.param) : id);
                         });

// Unique ids across files, known classes, a source for each case.
TEST(Incidents, WellFormed) {
  const std::set<std::string> classes = {"timeout-hang", "cuda-hardware", "data-mismatch", "network-ib",
                                         "network-socket", "shm-ipc", "p2p-topology", "version-mismatch",
                                         "oom", "config-invalid", "other", "none"};
  std::set<std::string> ids;
  for (const auto& c : bank()) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_TRUE(classes.count(c.label)) << c.id << ": unknown class " << c.label;
    EXPECT_FALSE(c.source.empty()) << c.id << ": no source";
    EXPECT_FALSE(c.log.empty()) << c.id << ": empty log";
  }
}

// Prints the confusion matrix (label → verdict) and the misses, for the issue note.
TEST(Incidents, ConfusionMatrix) {
  ncdx::testing::Confusion m;
  std::size_t right = 0, known = 0;
  for (const auto& c : bank()) {
    auto r = ncdx::testing::triage_text(ncdx::testing::kPastedName, c.log);
    ++m[c.label][r.verdict.klass];
    right += r.verdict.klass == c.label;
    known += !c.known_miss.empty();
    if (r.verdict.klass != c.label)
      std::printf("  miss: %s (%s → %s)%s\n", c.id.c_str(), c.label.c_str(), r.verdict.klass.c_str(),
                  c.known_miss.empty() ? "" : " [known]");
  }
  ncdx::testing::print_confusion("incident bank", m, right, bank().size());
  EXPECT_GE(right, bank().size() - known) << "incident bank accuracy regressed";
}

}  // namespace
