// Advice that never contradicts itself (issue #13 item 6): every env setting that a triage
// signature's fix prints, every NCCL_/TORCH_ setting a doctor fix text shows
// (knowledge/data/doctor_fixes.yaml) and every setting a derived finding's fix shows
// (knowledge/data/findings.yaml: triage, Flight Recorder, topology) is run through `ncdx env lint` (lint_env) for the NCCL
// version and fabric the fix applies to; so is every setting the lint itself recommends (what
// doctor's env.* checks print as their fix). A WARN or FAIL is a test failure unless
// tests/data/advice/lint_tradeoffs.tsv accepts that (advice id, rule) pair with a reason; a row
// there that no longer matches a warning fails too, so the list cannot go stale.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "analyze/config/env_file.h"
#include "analyze/env/lint.h"
#include "core/semver.h"
#include "core/strings.h"
#include "knowledge/doctor_fixes.h"
#include "knowledge/findings.h"
#include "knowledge/signatures.h"
#include "support/test_paths.h"

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

// The NAME=VALUE settings a prose text shows ("… e.g. NCCL_SOCKET_IFNAME=eth0."), as the
// space-separated form parse_env reads; sentence punctuation after a value is not part of it.
std::string settings_in(const std::string& text) {
  static const std::regex setting(R"(\b((?:NCCL|TORCH|CUDA)_[A-Z0-9_]+)=([^\s`'"();]+))");
  std::string out;
  for (std::sregex_iterator it(text.begin(), text.end(), setting), end; it != end; ++it) {
    std::string value = (*it)[2];
    while (!value.empty() && std::string_view(".,:").find(value.back()) != std::string_view::npos) value.pop_back();
    out += (out.empty() ? "" : " ") + std::string((*it)[1]) + "=" + value;
  }
  return out;
}

// Lints one piece of advice; rows other than PASS are contradictions unless accepted for `id`.
struct AdviceLinter {
  std::set<std::pair<std::string, std::string>> accepted = accepted_tradeoffs(), used;
  std::vector<std::string> contradictions;
  int linted = 0;

  // With `base`, the advice is applied to that environment (what a user who follows it has) and
  // only the rows about the variables it sets are judged: "lower X" is right next to the Y it
  // was computed with.
  void lint(const std::string& id, const std::string& env_text, const std::optional<std::string>& applies,
            std::optional<core::Version> nccl = std::nullopt, const std::map<std::string, std::string>* base = nullptr) {
    analyze::EnvLintInput in;
    in.production = false;  // advice to debug is not production logging
    auto advice = parse_env(env_text, in.interfaces);
    if (advice.empty()) return;
    if (base) in.env = *base;
    for (const auto& [k, v] : advice) in.env[k] = v;
    targets(applies, in);
    if (nccl) in.nccl = nccl;
    ++linted;
    for (const auto& row : analyze::lint_env(in)) {
      if (row.status == core::Outcome::pass || (base && !advice.count(row.parameter))) continue;
      std::pair<std::string, std::string> key{id, row.rule};
      if (accepted.count(key)) {
        used.insert(key);
        continue;
      }
      contradictions.push_back(id + ": advice '" + env_text + "' → " + core::to_string(row.status) + " " + row.rule + " (" + row.risk +
                               "; recommended: " + row.recommended + ")");
    }
  }
  // Every contradiction fails; so does an accepted pair of this kind of advice (ids starting with
  // `prefix`, or with no "kind:" prefix for "") that matched nothing.
  void report(const std::string& prefix) const {
    for (const auto& c : contradictions) ADD_FAILURE() << c;
    for (const auto& a : accepted) {
      bool mine = prefix.empty() ? a.first.find(':') == std::string::npos : a.first.rfind(prefix, 0) == 0;
      if (mine && !used.count(a))
        ADD_FAILURE() << "lint_tradeoffs.tsv: " << a.first << " / " << a.second << " matches no warning any more";
    }
  }
};

}  // namespace

TEST(AdviceLint, SettingsInProse) {
  EXPECT_EQ(settings_in("Set NCCL_SOCKET_IFNAME to an interface that is up, e.g. NCCL_SOCKET_IFNAME=eth0."),
            "NCCL_SOCKET_IFNAME=eth0");
  EXPECT_EQ(settings_in("(NCCL_IB_ROCE_VERSION_NUM=2) and `NCCL_DEBUG=VERSION`; LimitMEMLOCK=infinity"),
            "NCCL_IB_ROCE_VERSION_NUM=2 NCCL_DEBUG=VERSION");
  EXPECT_EQ(settings_in("no setting here: NCCL_SOCKET_IFNAME alone"), "");
}

// Doctor's fix texts: every setting any of them shows, for the versions the row says it targets.
TEST(AdviceLint, EveryDoctorFixPassesTheLintOrIsAnAcceptedTradeoff) {
  ASSERT_TRUE(knowledge::doctor_fix_table_status()) << knowledge::doctor_fix_table_status().message();
  ASSERT_GT(knowledge::doctor_fix_table().size(), 50u) << "is doctor_fixes.yaml read?";
  AdviceLinter l;
  int with_settings = 0;
  for (const auto& row : knowledge::doctor_fix_table()) {
    auto env = settings_in(row.fix);
    if (env.empty()) continue;
    ++with_settings;
    // A fix that names no NCCL version speaks to every node doctor runs on: it must hold from
    // the oldest NCCL the lint knows to the newest.
    if (row.applies && row.applies->find("NCCL") != std::string::npos) l.lint("doctor:" + row.id, env, row.applies);
    else
      for (const char* v : {"2.18.3", "2.21.5", "2.24.3", "2.27.5"}) l.lint("doctor:" + row.id, env, row.applies, core::V(v));
  }
  EXPECT_GE(with_settings, 4) << "fewer doctor fixes with settings than expected: does settings_in still match?";
  l.report("doctor:");
}

// What doctor's env.* checks print as their fix is the lint's own `recommended`: a setting the
// lint recommends must pass the lint, at the version it was recommended for.
TEST(AdviceLint, TheLintsOwnRecommendationsPassTheLint) {
  AdviceLinter l;
  for (const char* file : {"env/playbook.env", "env/root_job.env", "audit/playbook.env"}) {
    std::ifstream f(std::string(NCDX_TEST_DATA) + "/" + file);
    std::stringstream text;
    text << f.rdbuf();
    auto settings = analyze::parse_env_file(text.str(), file);
    ASSERT_TRUE(settings) << settings.status().message();
    for (const char* version : {"2.18.3", "2.21.5", "2.24.3", "2.27.5"}) {
      analyze::EnvLintInput in;
      for (const auto& s : *settings) in.env[s.name] = s.value;
      in.nccl = core::V(version);
      for (const auto& row : analyze::lint_env(in)) {
        auto env = settings_in(row.recommended);
        if (!env.empty()) l.lint(std::string("lint:") + row.rule, env, std::nullopt, core::V(version), &in.env);
      }
    }
  }
  EXPECT_GT(l.linted, 10) << "fewer lint recommendations with a setting than expected";
  l.report("lint:");
}

TEST(AdviceLint, EveryFixEnvPassesTheLintOrIsAnAcceptedTradeoff) {
  auto set = knowledge::SignatureSet::load_embedded();
  ASSERT_TRUE(set) << set.status().message();
  AdviceLinter l;
  ASSERT_FALSE(l.accepted.empty()) << "tests/data/advice/lint_tradeoffs.tsv not read";
  for (const auto& sig : set->all())
    for (const auto& fix : sig.fixes)
      if (fix.env) l.lint(sig.id, *fix.env, fix.applies);
  EXPECT_GT(l.linted, 50) << "fewer fix env settings than expected: is signatures.yaml read?";
  l.report("");  // signature ids carry no "doctor:"/"lint:" prefix
}

// The derived findings' fixes (knowledge/data/findings.yaml: triage, Flight Recorder, topology):
// their env settings and every setting their action text shows, for the versions they target.
TEST(AdviceLint, EveryFindingFixPassesTheLintOrIsAnAcceptedTradeoff) {
  ASSERT_TRUE(knowledge::finding_table_status()) << knowledge::finding_table_status().message();
  AdviceLinter l;
  for (const auto& def : knowledge::finding_table())
    for (const auto& fix : def.fixes) {
      std::string env = fix.env.value_or("");
      const std::string prose = settings_in(fix.action);
      if (!prose.empty()) env += (env.empty() ? "" : " ") + prose;
      if (env.empty() || env.find('{') != std::string::npos) continue;  // a setting filled in by the analysis
      if (fix.applies && fix.applies->find("NCCL") != std::string::npos) l.lint("finding:" + def.id, env, fix.applies);
      else
        for (const char* v : {"2.18.3", "2.21.5", "2.24.3", "2.27.5"}) l.lint("finding:" + def.id, env, fix.applies, core::V(v));
    }
  EXPECT_GE(l.linted, 4) << "fewer finding fixes with settings than expected: is findings.yaml read?";
  l.report("finding:");
}
