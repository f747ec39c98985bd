// The shipped signature table: loads, compiles, every example matches its own signature with its
// named fields, and the schema rules hold (ids, classes, priorities by role).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "core/finding.h"
#include "core/strings.h"
#include "knowledge/embedded.h"
#include "knowledge/signatures.h"
#include "support/test_paths.h"

namespace ncdx::knowledge {
namespace {

const SignatureSet& shipped() {
  static SignatureSet* set = [] {
    auto r = SignatureSet::load_embedded();
    if (!r.ok()) {
      ADD_FAILURE() << r.status().message();
      std::abort();
    }
    return new SignatureSet(std::move(r).value());
  }();
  return *set;
}

TEST(Signatures, LoadsAtLeastHundred) { EXPECT_GE(shipped().all().size(), 100u); }

// The launcher's exit reports that triage's fallback and culprit rules read (was a list of ids in
// triage/fallback.cc and verdict.cc); a bad value names its line.
TEST(Signatures, ExitReports) {
  std::map<std::string, ExitReport> reports;
  for (const auto& s : shipped().all())
    if (s.exit_report != ExitReport::none) reports[s.id] = s.exit_report;
  EXPECT_EQ(reports, (std::map<std::string, ExitReport>{{"mpi.failed-process", ExitReport::rank},
                                                        {"mpi.process-exited-nonzero", ExitReport::process},
                                                        {"torch.elastic.child-failed", ExitReport::process},
                                                        {"torch.elastic.root-cause-rank", ExitReport::rank}}));
  auto bad = SignatureSet::load("signatures:\n  - id: a.b\n    class: other\n    severity: error\n    role: cause\n"
                                "    title: t\n    exit_report: yes\n    patterns: ['x']\n",
                                "s.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("s.yaml:7"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("exit_report must be process or rank"), std::string::npos)
      << bad.status().message();
}

// Lines the launcher, scheduler or OS prints about a process (was an id-prefix test in
// triage/cascade.cc): every exit report is one, and the attribute parses strictly.
TEST(Signatures, PrintedByLauncher) {
  std::size_t n = 0;
  for (const auto& s : shipped().all()) {
    if (s.exit_report != ExitReport::none) EXPECT_TRUE(s.by_launcher) << s.id;
    n += s.by_launcher;
  }
  EXPECT_GE(n, 15u);
  EXPECT_TRUE(shipped().find("mpi.process-killed-signal")->by_launcher);
  EXPECT_TRUE(shipped().find("slurm.task-killed")->by_launcher);
  EXPECT_FALSE(shipped().find("nccl.result.system-error")->by_launcher);
  auto bad = SignatureSet::load("signatures:\n  - id: a.b\n    class: other\n    severity: error\n    role: cause\n"
                                "    title: t\n    printed_by: shell\n    patterns: ['x']\n",
                                "s.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("s.yaml:7"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("printed_by must be launcher or rank"), std::string::npos);
}

TEST(Signatures, IdsUniqueAndSorted) {
  std::set<std::string> ids;
  std::string prev;
  for (const auto& s : shipped().all()) {
    EXPECT_TRUE(ids.insert(s.id).second) << s.id;
    EXPECT_LT(prev, s.id);
    prev = s.id;
    EXPECT_EQ(shipped().find(s.id), &s);
  }
  EXPECT_EQ(shipped().find("no.such.signature"), nullptr);
}

TEST(Signatures, SchemaRules) {
  for (const auto& s : shipped().all()) {
    SCOPED_TRACE(s.id);
    EXPECT_TRUE(core::is_failure_class(s.klass));
    EXPECT_NE(s.klass, "none");
    EXPECT_FALSE(s.title.empty());
    EXPECT_FALSE(s.examples.empty()) << "every signature needs a real example";
    EXPECT_FALSE(s.refs.empty()) << "every signature names its source";
    if (s.role == Role::context) {
      EXPECT_EQ(s.severity, core::Severity::info);
      EXPECT_LE(s.priority, 10);
    } else {
      EXPECT_FALSE(s.fixes.empty()) << "a failure signature needs at least one fix";
      EXPECT_FALSE(s.cause.empty());
    }
  }
}

// Every example line matches its own signature, and every named group that a pattern of the
// signature declares and that the example can fill is extracted non-empty at least once.
TEST(Signatures, EveryExampleMatchesItsSignature) {
  const auto& all = shipped().all();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& s = all[i];
    std::set<std::string> seen_fields;
    for (const auto& ex : s.examples) {
      std::vector<SignatureMatch> out;
      shipped().match(ex, out);
      auto it = std::find_if(out.begin(), out.end(), [&](const SignatureMatch& m) { return m.index == i; });
      if (it == out.end()) {
        ADD_FAILURE() << s.id << " does not match its example: " << ex;
        continue;
      }
      for (const auto& [k, v] : it->fields) seen_fields.insert(k);
    }
    // Every {placeholder} used in the cause is a field that some example fills.
    static const std::regex ph("\\{([a-z_0-9]+)\\}");
    for (std::sregex_iterator m(s.cause.begin(), s.cause.end(), ph), end; m != end; ++m)
      EXPECT_TRUE(seen_fields.count((*m)[1].str())) << s.id << ": no example fills {" << (*m)[1].str() << "}";
  }
}

TEST(Signatures, MatchReportsInIdOrderOncePerSignature) {
  std::vector<SignatureMatch> out;
  shipped().match("NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, vendor err 129", out);
  ASSERT_GE(out.size(), 2u);
  std::set<std::size_t> seen;
  for (std::size_t k = 0; k < out.size(); ++k) {
    EXPECT_TRUE(seen.insert(out[k].index).second);
    if (k) { EXPECT_LT(out[k - 1].index, out[k].index); }
  }
}

TEST(Signatures, ExtractsWatchdogFields) {
  std::vector<SignatureMatch> out;
  shipped().match(
      "[2024-02-27T21:35:28.705869Z] fa88a9df [rank=1] || [E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLGATHER, Timeout(ms)=1800000) ran for 1804775 "
      "milliseconds before timing out.",
      out);
  const auto* sig = shipped().find("torch.watchdog.collective-timeout");
  ASSERT_NE(sig, nullptr);
  auto it = std::find_if(out.begin(), out.end(), [&](const SignatureMatch& m) { return &shipped().all()[m.index] == sig; });
  ASSERT_NE(it, out.end());
  EXPECT_EQ(it->fields.at("rank"), "1");
  EXPECT_EQ(it->fields.at("seq"), "1");
  EXPECT_EQ(it->fields.at("op"), "ALLGATHER");
  EXPECT_EQ(it->fields.at("timeout_ms"), "1800000");
  EXPECT_EQ(it->fields.at("ran_ms"), "1804775");
  EXPECT_EQ(it->fields.count("numel_in"), 0u);  // absent in this format: not reported, not 0
  EXPECT_EQ(render_cause(*sig, it->fields).find("{"), std::string::npos);
}

TEST(Signatures, ExtractsIbStatusAndCollFields) {
  std::vector<SignatureMatch> out;
  shipped().match("NET/IB : Got completion from peer 10.0.0.2<52412> with error 13, opcode 0, len 0, vendor err 136", out);
  bool rnr = false;
  for (const auto& m : out)
    if (shipped().all()[m.index].id == "nccl.ib.completion-rnr-retry") {
      rnr = true;
      EXPECT_EQ(m.fields.at("status"), "13");
      EXPECT_EQ(m.fields.at("vendor_err"), "136");
      EXPECT_EQ(m.fields.at("peer"), "10.0.0.2<52412>");
    } else {
      EXPECT_NE(shipped().all()[m.index].id, "nccl.ib.completion-retry-exceeded");
    }
  EXPECT_TRUE(rnr);
  out.clear();
  shipped().match("h:1:1 [3] NCCL INFO AllGather: opCount a1 sendbuff 0x7f00 recvbuff 0x7f80 count 4096 datatype 9 op 0 root 0 comm 0x5555 [nranks=64] stream 0x6666", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(shipped().all()[out[0].index].id, "nccl.ctx.coll");
  EXPECT_EQ(out[0].fields.at("op"), "AllGather");
  EXPECT_EQ(out[0].fields.at("op_count"), "a1");
  EXPECT_EQ(out[0].fields.at("nranks"), "64");
}

TEST(Signatures, OrdinaryLinesMatchNothing) {
  for (const char* line : {"", "hello world", "epoch 3 step 100 loss 1.234",
                           "MOC-R4PCC04U37:574691:574714 [0] NCCL INFO P2P Chunksize set to 131072",
                           "MOC-R4PCC04U37:574691:574714 [0] NCCL INFO CC Off, workFifoBytes 1048576"}) {
    std::vector<SignatureMatch> out;
    shipped().match(line, out);
    EXPECT_TRUE(out.empty()) << line << " matched " << shipped().all()[out[0].index].id;
  }
}

// Env vars named in fixes must exist (src/knowledge/data/nccl_env_vars.tsv): no folklore like NCCL_IB_MTU.
TEST(Signatures, FixEnvVarsAreReal) {
  // nccl_env_vars.tsv as compiled into ncdx (every NCCL variable, every version).
  auto tsv = embedded("nccl_env_vars.tsv");
  ASSERT_TRUE(tsv);
  std::set<std::string> known;
  for (auto line : core::split(*tsv, '\n')) known.insert(std::string(line.substr(0, line.find('\t'))));
  ASSERT_GT(known.size(), 300u);
  static const std::regex var("\\bNCCL_[A-Z0-9_]+");
  for (const auto& s : shipped().all())
    for (const auto& f : s.fixes)
      for (const auto* text : {&f.action, f.env ? &*f.env : nullptr, f.command ? &*f.command : nullptr}) {
        if (!text) continue;
        for (std::sregex_iterator m(text->begin(), text->end(), var), end; m != end; ++m)
          EXPECT_TRUE(known.count(m->str())) << s.id << " names unknown variable " << m->str();
      }
}

}  // namespace
}  // namespace ncdx::knowledge

namespace ncdx::knowledge {
namespace {

// Every pattern has a literal for the prefilter; otherwise it would run on every log line.
TEST(SignatureSetStats, NoUnfilteredPatternsAndCollIsFast) {
  auto set = SignatureSet::load_embedded();
  ASSERT_TRUE(set.ok());
  auto st = set->stats();
  EXPECT_EQ(st.unfiltered, 0u);
  EXPECT_GT(st.fast, 10u);
  EXPECT_LE(st.fast, st.patterns);
}

}  // namespace
}  // namespace ncdx::knowledge

namespace ncdx::knowledge {
namespace {

// Healthy runs (../shared/data: NCCL INFO logs and nccl-tests outputs that completed) must not
// trigger any failure signature: a false cause would send an engineer after a ghost.
TEST(SignatureFalsePositives, HealthyRealLogsMatchOnlyContext) {
  auto set = SignatureSet::load_embedded();
  ASSERT_TRUE(set.ok());
  int lines = 0;
  for (auto [file, field] : {std::pair{"nccl_info_logs.jsonl", "log_verbatim"}, std::pair{"nccl_tests_results.jsonl", "output_verbatim"}}) {
    std::ifstream in(std::string(NCDX_SHARED_DIR) + "/data/" + file);
    if (!in) GTEST_SKIP() << "../shared/data not available";
    for (std::string rec; std::getline(in, rec);) {
      if (rec.empty()) continue;
      std::istringstream log(nlohmann::json::parse(rec).at(field).get<std::string>());
      for (std::string line; std::getline(log, line); ++lines) {
        std::vector<SignatureMatch> out;
        set->match(line, out);
        for (const auto& m : out)
          EXPECT_EQ(set->all()[m.index].role, Role::context) << set->all()[m.index].id << " on healthy line: " << line;
      }
    }
  }
  EXPECT_GT(lines, 3000);
}

}  // namespace
}  // namespace ncdx::knowledge

namespace ncdx::knowledge {
namespace {

// match(line, out, include_context=false) uses a prefilter without context atoms; it must return
// exactly the non-context part of the full match, on every example and corpus line.
TEST(SignatureSetMatch, WithoutContextEqualsFilteredFullMatch) {
  auto set = SignatureSet::load_embedded();
  ASSERT_TRUE(set.ok());
  std::vector<std::string> lines;
  for (const auto& s : set->all()) lines.insert(lines.end(), s.examples.begin(), s.examples.end());
  std::ifstream in(std::string(NCDX_TEST_DATA) + "/corpus/failures-dev.jsonl");
  for (std::string rec; std::getline(in, rec);) {
    if (rec.empty()) continue;
    std::istringstream log(nlohmann::json::parse(rec).at("log").get<std::string>());
    for (std::string l; std::getline(log, l);) lines.push_back(l);
  }
  ASSERT_GT(lines.size(), 300u);
  for (const auto& l : lines) {
    std::vector<SignatureMatch> full, failures;
    set->match(l, full);
    set->match(l, failures, /*include_context=*/false);
    std::vector<SignatureMatch> want;
    for (auto& m : full)
      if (set->all()[m.index].role != Role::context) want.push_back(m);
    ASSERT_EQ(failures.size(), want.size()) << l;
    for (std::size_t k = 0; k < want.size(); ++k) {
      EXPECT_EQ(failures[k].index, want[k].index) << l;
      EXPECT_EQ(failures[k].fields, want[k].fields) << l;
    }
  }
}

}  // namespace
}  // namespace ncdx::knowledge
