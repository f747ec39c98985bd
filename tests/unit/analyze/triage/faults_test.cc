// Real outputs of the injected-fault bench (bench/faults/), kept as regression fixtures in
// tests/data/triage/faults/<run>/: the launcher's console (and torchrun's --log-dir tree), the
// ground truth the run wrote before triage ran (truth.json: fault, rank, world size, launcher) and
// how it was made (run.json: the command line). Triage must give the fault's class (or one the log
// cannot tell apart from it, truth.json "accept") and name exactly the faulty rank. A run whose
// log cannot decide carries known_miss.txt with the reason; the test fails if it starts passing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/triage_test_util.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> runs() {
  std::vector<fs::path> out;
  fs::path dir = fs::path(NCDX_TEST_DATA) / "triage" / "faults";
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (fs::exists(e.path() / "truth.json")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

class FaultRun : public ::testing::TestWithParam<std::size_t> {};

TEST_P(FaultRun, CulpritAndClass) {
  const fs::path run = runs()[GetParam()];
  nlohmann::json t = nlohmann::json::parse(std::ifstream(run / "truth.json"));
  std::vector<std::string> inputs = {(run / "console.log").string()};
  if (t["launcher"] == "torchrun-logdir") inputs.insert(inputs.begin(), (run / "logdir").string());
  auto r = ncdx::testing::triage_paths(inputs);
  const std::string klass = t["klass"];
  bool class_ok = r.verdict.klass == klass;
  for (const auto& a : t["accept"]) class_ok |= r.verdict.klass == a.get<std::string>();
  bool culprit_ok = t["fault"] == "straggler" || r.verdict.culprit.ranks == std::vector<int>{t["rank"].get<int>()};
  std::string got = r.verdict.klass + " ranks [";
  for (int x : r.verdict.culprit.ranks) got += std::to_string(x) + " ";
  got += "] (" + r.verdict.id + "): " + r.verdict.summary;
  std::ifstream miss(run / "known_miss.txt");
  if (miss) {
    std::string why((std::istreambuf_iterator<char>(miss)), {});
    EXPECT_FALSE(class_ok && culprit_ok) << run.filename() << " passes now: remove known_miss.txt (" << why << ")";
    return;
  }
  EXPECT_TRUE(class_ok) << run.filename() << " " << t["fault"] << " on rank " << t["rank"] << ": " << got;
  EXPECT_TRUE(culprit_ok) << run.filename() << " " << t["fault"] << " on rank " << t["rank"] << ": " << got;
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultRun, ::testing::Range<std::size_t>(0, runs().size()),
                         [](const auto& info) { return ncdx::testing::param_name(runs()[info.param].filename().string()); });

TEST(FaultRuns, Present) { EXPECT_GE(runs().size(), 10u) << "tests/data/triage/faults holds the bench's real outputs"; }

}  // namespace
