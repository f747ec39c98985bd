// Real outputs of the injected-fault bench (bench/faults/), kept as regression fixtures in
// tests/data/triage/faults/<run>/: the launcher's console (and torchrun's --log-dir tree), the
// ground truth the run wrote before triage ran (truth.json: fault, rank, world size, launcher) and
// how it was made (run.json: the command line). Triage must give the fault's class (or one the log
// cannot tell apart from it, truth.json "accept") and name exactly the faulty rank (truth
// "culprit_ranks" where the fault takes more than one: a dropped link, all ranks of its host).
// Runs across network-namespace hosts (launchers mpirun-netns, torchrun-netns: truth "victim_host")
// must also name exactly the victim's host, by its name or one of its addresses (truth
// "host_addrs": gloo names a peer by "[address]:port"). A run whose log cannot decide carries
// known_miss.txt with the reason; the test fails if it starts passing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
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
  std::vector<std::string> inputs;
  if (fs::exists(run / "console.log")) inputs.push_back((run / "console.log").string());
  // torchrun-netns: one torchrun per host, each host's console in node-<host>.log
  for (const auto& e : fs::directory_iterator(run))
    if (e.path().filename().string().rfind("node-", 0) == 0) inputs.push_back(e.path().string());
  std::sort(inputs.begin(), inputs.end());
  if (t["launcher"] == "torchrun-logdir") inputs.insert(inputs.begin(), (run / "logdir").string());
  auto r = ncdx::testing::triage_paths(inputs);
  const std::string klass = t["klass"];
  bool class_ok = r.verdict.klass == klass;
  for (const auto& a : t["accept"]) class_ok |= r.verdict.klass == a.get<std::string>();
  std::vector<int> want = {t["rank"].get<int>()};
  if (t.contains("culprit_ranks")) want = t["culprit_ranks"].get<std::vector<int>>();
  bool culprit_ok = t["fault"] == "straggler" || r.verdict.culprit.ranks == want;
  bool host_ok = true;
  if (t.contains("victim_host") && t["fault"] != "straggler") {
    std::map<std::string, std::string> alias;
    for (const auto& [h, addrs] : t["host_addrs"].items()) {
      alias[h] = h;
      for (const auto& a : addrs) alias[a.get<std::string>()] = h;
    }
    std::set<std::string> named;
    for (const auto& h : r.verdict.culprit.hosts) named.insert(alias.count(h) ? alias[h] : h);
    host_ok = named == std::set<std::string>{t["victim_host"].get<std::string>()};
  }
  std::string got = r.verdict.klass + " ranks [";
  for (int x : r.verdict.culprit.ranks) got += std::to_string(x) + " ";
  got += "] hosts [";
  for (const auto& h : r.verdict.culprit.hosts) got += h + " ";
  got += "] (" + r.verdict.id + "): " + r.verdict.summary;
  std::ifstream miss(run / "known_miss.txt");
  if (miss) {
    std::string why((std::istreambuf_iterator<char>(miss)), {});
    EXPECT_FALSE(class_ok && culprit_ok && host_ok) << run.filename() << " passes now: remove known_miss.txt (" << why << ")";
    return;
  }
  EXPECT_TRUE(class_ok) << run.filename() << " " << t["fault"] << " on rank " << t["rank"] << ": " << got;
  EXPECT_TRUE(culprit_ok) << run.filename() << " " << t["fault"] << " on rank " << t["rank"] << ": " << got;
  EXPECT_TRUE(host_ok) << run.filename() << " " << t["fault"] << " on host " << t.value("victim_host", "") << ": " << got;
}

INSTANTIATE_TEST_SUITE_P(Faults, FaultRun, ::testing::Range<std::size_t>(0, runs().size()),
                         [](const auto& info) { return ncdx::testing::param_name(runs()[info.param].filename().string()); });

TEST(FaultRuns, Present) { EXPECT_GE(runs().size(), 10u) << "tests/data/triage/faults holds the bench's real outputs"; }

// Host attribution is checked on real multi-host runs, not only on one host's.
TEST(FaultRuns, SomeAcrossHosts) {
  std::size_t n = 0;
  for (const auto& run : runs())
    n += nlohmann::json::parse(std::ifstream(run / "truth.json")).contains("victim_host");
  EXPECT_GE(n, 4u) << "tests/data/triage/faults holds runs across network-namespace hosts (g-*)";
}

}  // namespace
