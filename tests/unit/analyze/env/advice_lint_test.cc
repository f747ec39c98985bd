// Advice that never contradicts itself (issue #13 item 6): every env setting that a triage
// signature's fix prints is run through `ncdx env lint` (lint_env) for the NCCL version and fabric
// the fix applies to. A WARN or FAIL is a test failure unless tests/data/advice/lint_tradeoffs.tsv
// accepts that (signature, rule) pair with a reason; a row there that no longer matches a warning
// fails too, so the list cannot go stale.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "analyze/env/lint.h"
#include "core/semver.h"
#include "core/strings.h"
#include "knowledge/signatures.h"

using namespace ncdx;

namespace {

// "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET" → pairs. Placeholders such as <iface> become a
// concrete value that the lint is told exists (an interface named by the user is one they have).
std::map<std::string, std::string> parse_env(const std::string& text, std::vector<std::string>& interfaces) {
  std::map<std::string, std::string> env;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    std::string name = word.substr(0, eq), value = word.substr(eq + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    if (value.find('<') != std::string::npos) value = name.find("IFNAME") != std::string::npos ? "eth0" : "x";
    if (name.find("IFNAME") != std::string::npos) interfaces.push_back(value);
    env[name] = value;
  }
  return env;
}

// The versions and fabric a fix targets, from its `applies` text ("RoCE, NCCL < 2.21",
// "NCCL >= 2.19", "PyTorch >= 2.2"). Without one, the newest versions the lint knows judge it.
void targets(const std::optional<std::string>& applies, analyze::EnvLintInput& in) {
  if (!applies) return;
  std::smatch m;
  static const std::regex nccl(R"(NCCL\s*(<|>=|>)\s*(\d+)\.(\d+))"), torch(R"(PyTorch\s*(<|>=|>)\s*(\d+)\.(\d+))");
  auto pick = [](const std::smatch& m) {
    int major = std::stoi(m[2]), minor = std::stoi(m[3]);
    if (m[1] == "<") return core::V(std::to_string(major) + "." + std::to_string(minor - 1) + ".99");
    return core::V(std::to_string(major) + "." + std::to_string(minor) + ".0");
  };
  if (std::regex_search(*applies, m, nccl)) in.nccl = pick(m);
  if (std::regex_search(*applies, m, torch)) in.torch = pick(m);
  if (applies->find("RoCE") != std::string::npos) in.cluster = analyze::ClusterShape{2, 8, std::nullopt, "roce"};
}

std::set<std::pair<std::string, std::string>> accepted_tradeoffs() {
  std::set<std::pair<std::string, std::string>> out;
  std::ifstream f(std::string(NCDX_TEST_DATA) + "/advice/lint_tradeoffs.tsv");
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto cols = core::split(line, '\t');
    if (cols.size() >= 3) out.insert({std::string(cols[0]), std::string(cols[1])});
  }
  return out;
}

}  // namespace

TEST(AdviceLint, EveryFixEnvPassesTheLintOrIsAnAcceptedTradeoff) {
  auto set = knowledge::SignatureSet::load_embedded();
  ASSERT_TRUE(set) << set.status().message();
  auto accepted = accepted_tradeoffs();
  ASSERT_FALSE(accepted.empty()) << "tests/data/advice/lint_tradeoffs.tsv not read";
  std::set<std::pair<std::string, std::string>> used;
  std::vector<std::string> contradictions;
  int linted = 0;
  for (const auto& sig : set->all()) {
    for (const auto& fix : sig.fixes) {
      if (!fix.env) continue;
      analyze::EnvLintInput in;
      in.production = false;  // advice to debug is not production logging
      in.env = parse_env(*fix.env, in.interfaces);
      if (in.env.empty()) continue;
      targets(fix.applies, in);
      ++linted;
      for (const auto& row : analyze::lint_env(in)) {
        if (row.status == core::Outcome::pass) continue;
        std::pair<std::string, std::string> key{sig.id, row.rule};
        if (accepted.count(key)) {
          used.insert(key);
          continue;
        }
        contradictions.push_back(sig.id + ": fix env '" + *fix.env + "' → " + core::to_string(row.status) + " " + row.rule + " (" +
                                 row.risk + "; recommended: " + row.recommended + ")");
      }
    }
  }
  EXPECT_GT(linted, 50) << "fewer fix env settings than expected: is signatures.yaml read?";
  for (const auto& c : contradictions) ADD_FAILURE() << c;
  for (const auto& a : accepted)
    if (!used.count(a)) ADD_FAILURE() << "lint_tradeoffs.tsv: " << a.first << " / " << a.second << " matches no warning any more";
}
