// `ncdx docs ID`: every id that the triage, doctor, topo, Flight Recorder and audit goldens show
// resolves to its table entry, so a user can look up what a report printed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "report/id_docs.h"
#include "support/test_paths.h"

namespace ncdx::report {
namespace {

TEST(IdDocs, DescribesEachKindFromItsTable) {
  auto sig = describe_id("nccl.result.system-error");
  ASSERT_TRUE(sig);
  EXPECT_NE(sig->find("triage signature"), std::string::npos);
  EXPECT_NE(sig->find("class: "), std::string::npos);
  auto check = describe_id("os.shm_size");
  ASSERT_TRUE(check);
  EXPECT_NE(check->find("doctor check"), std::string::npos);
  auto var = describe_id("NCCL_IB_HCA");
  ASSERT_TRUE(var);
  EXPECT_NE(var->find("nccl_env_vars.tsv:"), std::string::npos);
  EXPECT_TRUE(describe_id("TORCH_NCCL_ASYNC_ERROR_HANDLING"));
  EXPECT_FALSE(describe_id("NCCL_MAX_RINGS_FOLKLORE"));
  EXPECT_FALSE(describe_id(""));
}

TEST(IdDocs, EveryIdInTheGoldensResolves) {
  namespace fs = std::filesystem;
  const fs::path tests = fs::path(NCDX_TEST_DATA).parent_path();
  const std::regex id_re("\"(id|rule|check)\" ?: ?\"([A-Za-z0-9_.:-]+)\"");
  std::set<std::string> ids;
  for (const char* suite : {"triage", "doctor", "topo", "fr", "audit", "data/doctor", "data/triage/golden"}) {
    if (!fs::exists(tests / suite)) continue;
    for (const auto& e : fs::recursive_directory_iterator(tests / suite)) {
      if (!e.is_regular_file() || (e.path().extension() != ".txt" && e.path().extension() != ".json")) continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      std::string text = ss.str();
      for (std::sregex_iterator it(text.begin(), text.end(), id_re), end; it != end; ++it) ids.insert((*it)[2]);
    }
  }
  ASSERT_GT(ids.size(), 40u) << "the goldens moved: no ids found under " << tests;
  std::vector<std::string> missing;
  for (const auto& id : ids) {
    // Not tables yet (#9): env lint rules are code in analyze/env/*_rules.cc (env.*, torch.*), the
    // derived triage and Flight Recorder findings are C++ literals (triage.*, fr.*), and measure rows
    // (cuda.*, gpu.copies, shm.write, storage.fsync) are measurements, not judged ids. The rest resolves.
    static const std::regex not_tabled("^(env|torch|triage|fr|cuda)\\..*|^gpu\\.copies$|^shm\\.write$|^storage\\.fsync$");
    if (std::regex_match(id, not_tabled)) continue;
    if (!describe_id(id)) missing.push_back(id);
  }
  std::string list;
  for (const auto& id : missing) list += " " + id;
  EXPECT_TRUE(missing.empty()) << missing.size() << " of " << ids.size() << " ids have no docs:" << list;
}

}  // namespace
}  // namespace ncdx::report
